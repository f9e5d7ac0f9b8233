// Names unique within an organization (roles, groups): a write that would take a name another
// object holds is a 409, whether the clash is seen before the write or only when a concurrent
// write wins the unique index.
import { conflict } from '../errors';

/** `holder(name)` finds the id of the object holding a name; `self` is the object being written (it may keep its name). */
export async function writeWithUniqueName(
  noun: string,
  name: string,
  holder: (name: string) => Promise<string | undefined>,
  write: () => Promise<unknown>,
  self?: string,
): Promise<void> {
  const taken = async () => {
    const other = await holder(name);
    return other !== undefined && other !== self;
  };
  if (await taken()) throw conflict(`a ${noun} named "${name}" already exists`);
  try {
    await write();
  } catch (error) {
    if (await taken()) throw conflict(`a ${noun} named "${name}" already exists`);
    throw error;
  }
}
