// The options a route plugin is registered with: only the services it calls, so that each
// plugin's signature says what it depends on and it can be mounted with those alone.
import type { Services } from '../../services';

/** Options of a plugin that calls the services named in `Needed`. */
export interface ServicesOf<Needed extends keyof Services> {
  services: Pick<Services, Needed>;
}
