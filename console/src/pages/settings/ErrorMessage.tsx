// The server's error message where a settings form or list failed, announced to screen readers.
export function ErrorMessage({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <div className="error-box" role="alert">
      {message}
    </div>
  );
}
