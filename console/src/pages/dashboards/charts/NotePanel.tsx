// A note: the chart's Markdown rendered with marked and sanitized with DOMPurify before it
// reaches the page (no scripts, no event handlers, no inline styles, which the CSP forbids).
// Event handler attributes are cut from raw HTML before any parser sees it: the browser would
// otherwise report each one as a blocked inline script while DOMPurify parses the HTML.
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { useMemo } from 'react';
import type { PanelProps } from './panel-types';

const HANDLER_ATTRIBUTE = /\son[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi;

const markdown = new Marked({
  gfm: true,
  walkTokens(token) {
    if (token.type === 'html' && 'text' in token && typeof token.text === 'string') token.text = token.text.replace(HANDLER_ATTRIBUTE, '');
  },
});

export function renderMarkdown(text: string): string {
  const html = markdown.parse(text, { async: false });
  return DOMPurify.sanitize(html, { FORBID_ATTR: ['style'], FORBID_TAGS: ['style'] });
}

export function NotePanel({ chart, height }: PanelProps) {
  const text = typeof chart.text === 'string' ? chart.text : '';
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className="dashboard-note" style={{ maxHeight: height }} dangerouslySetInnerHTML={{ __html: html }} />;
}
