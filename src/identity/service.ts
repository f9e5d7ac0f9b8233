// The identity domain as one service: organizations (and provisioned ones), their members,
// custom roles and groups. Authentication and the evaluation of capabilities live in src/auth.
import type { Logger } from 'pino';
import type { AuthService } from '../auth/service';
import type { Config } from '../config';
import type { RelationalStore } from '../db/store';
import type { DatasetStorage } from '../datasets/datasets';
import { CustomRoleService } from './custom-roles';
import { mailLink } from '../auth/link-mail';
import { GroupService } from './groups';
import { InvitationService } from './invitations';
import { OrgService } from './orgs';
import { PersonalTokenService } from './personal-token-service';
import { ProvisioningService } from './provisioning';
import { RoleDirectory } from './role-directory';
import { UserService } from './users';

export class IdentityService {
  readonly roleDirectory: RoleDirectory;
  readonly users: UserService;
  readonly roles: CustomRoleService;
  readonly groups: GroupService;
  readonly orgs: OrgService;
  readonly personalTokens: PersonalTokenService;
  readonly invitations: InvitationService;
  readonly provisioning: ProvisioningService;

  constructor(store: RelationalStore, auth: AuthService, storage: Pick<DatasetStorage, 'dropTable'>, config: Config, logger: Logger) {
    this.roleDirectory = new RoleDirectory(store.prisma);
    this.users = new UserService(store.prisma, this.roleDirectory);
    this.roles = new CustomRoleService(store.prisma, this.roleDirectory);
    this.groups = new GroupService(store.prisma, this.roleDirectory);
    this.personalTokens = new PersonalTokenService(store.prisma);
    this.invitations = new InvitationService(store.prisma, this.roleDirectory, auth.loginLinks, async (link) => {
      try {
        return await mailLink(config.monitors.smtpUrl, config.monitors.smtpFrom, link);
      } catch (error) {
        logger.warn({ err: error, email: link.email }, 'could not mail the invitation; its link is returned to the inviter');
        return false;
      }
    });
    this.orgs = new OrgService(store.prisma, (identity, orgId) => auth.principalIn(identity, orgId), config);
    this.provisioning = new ProvisioningService(store.prisma, this.orgs, storage, store.leases, logger, config.provisionedOrgsPerDay);
  }

  start(): void {
    this.provisioning.start();
  }

  async stop(): Promise<void> {
    await this.provisioning.stop();
  }
}
