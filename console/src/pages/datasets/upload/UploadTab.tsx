// "Upload": a JSON, NDJSON or CSV file sent to the dataset's ingest API with a progress bar, the
// ingest options the API takes (time field and format, CSV delimiter, labels), and its answer.
import { Upload } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { type IngestStatus, uploadFile } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { errorMessage } from '../useLoaded';
import { ndjsonLineNumbers, MAX_FILE_TO_NUMBER } from './failure-lines';
import { IngestAnswer } from './IngestAnswer';
import { contentTypeOf, formatBytes, guessFormat, UPLOAD_FORMATS, type UploadFormat } from './upload-format';

export function UploadTab({ dataset }: { dataset: string }) {
  const [file, setFile] = useState<File>();
  const [format, setFormat] = useState<UploadFormat>('ndjson');
  const [timestampField, setTimestampField] = useState('');
  const [timestampFormat, setTimestampFormat] = useState('');
  const [csvDelimiter, setCsvDelimiter] = useState('');
  const [labels, setLabels] = useState('');
  const [progress, setProgress] = useState<{ sent: number; total: number }>();
  const [answer, setAnswer] = useState<IngestStatus>();
  const [lines, setLines] = useState<Map<number, number>>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const controller = useRef<AbortController | undefined>(undefined);

  const pick = (picked: File | undefined) => {
    setFile(picked);
    setAnswer(undefined);
    setError(undefined);
    setProgress(undefined);
    const guessed = picked && guessFormat(picked.name);
    if (guessed) setFormat(guessed);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    setAnswer(undefined);
    setError(undefined);
    setProgress({ sent: 0, total: file.size });
    const current = new AbortController();
    controller.current = current;
    try {
      const status = await uploadFile(dataset, file, {
        contentType: contentTypeOf(format),
        timestampField: timestampField.trim(),
        timestampFormat: timestampFormat.trim(),
        csvDelimiter: format === 'csv' ? csvDelimiter : '',
        labels,
        signal: current.signal,
        onProgress: (sent, total) => setProgress({ sent, total }),
      });
      const positions = status.failures.map((failure) => failure.index).filter((index): index is number => index !== undefined);
      setLines(format === 'ndjson' && positions.length > 0 && file.size <= MAX_FILE_TO_NUMBER ? ndjsonLineNumbers(await file.text(), positions) : undefined);
      setAnswer(status);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      controller.current = undefined;
      setBusy(false);
    }
  };

  const percent = progress && progress.total > 0 ? Math.round((progress.sent / progress.total) * 100) : 0;
  return (
    <section aria-labelledby="upload-title">
      <h2 id="upload-title">Upload</h2>
      <form className="datasets-card" onSubmit={submit} aria-label="Upload a file">
        <div className="form-stack">
          <label>
            File
            <input type="file" accept=".json,.ndjson,.jsonl,.csv,.tsv,application/json,text/csv" onChange={(event) => pick(event.target.files?.[0])} />
          </label>
          {file && (
            <span className="muted">
              {file.name}, {formatBytes(file.size)}
            </span>
          )}
          <label>
            Format
            <select value={format} onChange={(event) => setFormat(event.target.value as UploadFormat)}>
              {UPLOAD_FORMATS.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.label}
                </option>
              ))}
            </select>
          </label>
          <details>
            <summary>Options</summary>
            <div className="form-stack">
              <label>
                Time field
                <input value={timestampField} onChange={(event) => setTimestampField(event.target.value)} placeholder="_time" />
              </label>
              <label>
                Time format (Go layout)
                <input value={timestampFormat} onChange={(event) => setTimestampFormat(event.target.value)} placeholder="RFC3339, 02/01/2006 15:04:05" />
              </label>
              {format === 'csv' && (
                <label>
                  CSV delimiter
                  <input value={csvDelimiter} onChange={(event) => setCsvDelimiter(event.target.value)} placeholder="," maxLength={8} />
                </label>
              )}
              <label>
                Labels added to every event (JSON object)
                <input className="mono" value={labels} onChange={(event) => setLabels(event.target.value)} placeholder='{"env":"prod"}' />
              </label>
            </div>
          </details>
        </div>
        <div className="toolbar">
          <button type="submit" className="button primary" disabled={!file || busy}>
            <Upload size={16} aria-hidden="true" />
            Upload
          </button>
          {busy && (
            <button type="button" className="button" onClick={() => controller.current?.abort()}>
              Cancel upload
            </button>
          )}
        </div>
        {progress && (
          <div className="datasets-section">
            <label>
              <span className="visually-hidden">Upload progress</span>
              <progress className="upload-progress" aria-label="Upload progress" max={100} value={percent} />
            </label>{' '}
            <span className="muted">
              {percent}% of {formatBytes(progress.total)}
              {busy && percent === 100 ? ', storing…' : ''}
            </span>
          </div>
        )}
        <ErrorBox message={error} />
        {answer && <IngestAnswer status={answer} lines={lines} />}
      </form>
    </section>
  );
}
