// The server's message for a request that failed, announced to screen readers.
export function ErrorBox({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <div className="error-box" role="alert">
      {message}
    </div>
  );
}
