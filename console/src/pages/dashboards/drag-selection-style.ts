// react-draggable (under the grid's move and resize) adds a <style> element the first time a drag
// starts, to keep text from being selected meanwhile; without a nonce the console's CSP blocks
// it. Creating that element ourselves, with the page's nonce, lets the library find it in place.
const STYLE_ID = 'react-draggable-style-el';

export function installDragSelectionStyle(): void {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  if (nonce) style.setAttribute('nonce', nonce);
  style.textContent = '.react-draggable-transparent-selection *::selection { all: inherit; }\n';
  document.head.appendChild(style);
}
