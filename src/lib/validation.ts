// Parses untrusted input with a zod schema, turning the first problems into one clear
// invalid-input error that names the offending fields.
import type { z } from 'zod';
import { invalidInput } from '../errors';

type Issue = z.core.$ZodIssue;

/** The most specific message of an issue (record keys and unions nest the useful one). */
function messageOf(issue: Issue): string {
  const nested = 'issues' in issue && Array.isArray(issue.issues) ? (issue.issues.flat()[0] as Issue | undefined) : undefined;
  if (issue.code === 'invalid_key' && nested) return `invalid key: ${messageOf(nested)}`;
  return issue.message;
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what = 'request body'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : what;
    return `${where}: ${messageOf(issue)}`;
  });
  throw invalidInput(`invalid ${what}: ${problems.join('; ')}`);
}
