// Nobody hands out more than they hold: giving a user a role, putting a role in a group or
// defining a role's capabilities requires the caller to hold every capability involved, the
// same rule API tokens follow at creation.
import { type CapabilitySet, firstMissing } from '../auth/capabilities';
import type { Principal } from '../auth/principal';
import { forbidden } from '../errors';

export function capabilitiesOfPrincipal(principal: Principal): CapabilitySet {
  return {
    datasetCapabilities: principal.datasetCapabilities,
    orgCapabilities: principal.orgCapabilities,
    viewCapabilities: principal.viewCapabilities ?? {},
  };
}

/** Throws 403 when `wanted` holds a capability the principal lacks; `what` says what was attempted. */
export function requireHolds(principal: Principal, wanted: CapabilitySet, what: string): void {
  const missing = firstMissing(capabilitiesOfPrincipal(principal), wanted);
  if (missing) throw forbidden(`cannot ${what}: that needs ${missing}, which the calling token lacks`);
}
