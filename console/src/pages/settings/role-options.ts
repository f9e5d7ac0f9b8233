// The roles a member can be given: the base roles, then the organization's custom roles.
import type { CustomRole } from '../../api/settings';
import { BASE_ROLES } from './capability-catalog';

export interface RoleOption {
  id: string;
  name: string;
}

export function roleOptions(custom: CustomRole[] | undefined): RoleOption[] {
  return [...BASE_ROLES, ...(custom ?? []).map((role) => ({ id: role.id, name: role.name }))];
}
