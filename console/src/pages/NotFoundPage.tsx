// What an unknown address shows.
import { Link } from 'react-router';

export function NotFoundPage({ message }: { message?: string }) {
  return (
    <main className="centered-page">
      <h1>Not found</h1>
      <p>{message ?? 'There is no page at this address.'}</p>
      <p>
        <Link to="/">Go to the console</Link>
      </p>
    </main>
  );
}
