-- AlterTable
ALTER TABLE "organizations" ADD COLUMN "expires_at" DATETIME;
ALTER TABLE "organizations" ADD COLUMN "claim_secret_hash" TEXT;
ALTER TABLE "organizations" ADD COLUMN "provisioned_from" TEXT;

-- AlterTable
ALTER TABLE "tokens" ADD COLUMN "view_capabilities" TEXT NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "roles" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "org_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "dataset_capabilities" TEXT NOT NULL DEFAULT '{}',
    "org_capabilities" TEXT NOT NULL DEFAULT '{}',
    "view_capabilities" TEXT NOT NULL DEFAULT '{}',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "roles_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "groups" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "org_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "groups_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "group_roles" (
    "group_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,

    PRIMARY KEY ("group_id", "role"),
    CONSTRAINT "group_roles_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "group_members" (
    "group_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,

    PRIMARY KEY ("group_id", "user_id"),
    CONSTRAINT "group_members_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "group_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "annotations" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "org_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT,
    "url" TEXT,
    "time" DATETIME NOT NULL,
    "end_time" DATETIME,
    "created_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "annotations_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "annotation_datasets" (
    "annotation_id" TEXT NOT NULL,
    "dataset" TEXT NOT NULL,

    PRIMARY KEY ("annotation_id", "dataset"),
    CONSTRAINT "annotation_datasets_annotation_id_fkey" FOREIGN KEY ("annotation_id") REFERENCES "annotations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "starred_queries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "org_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'apl',
    "name" TEXT NOT NULL,
    "dataset" TEXT,
    "who" TEXT NOT NULL,
    "metadata" TEXT NOT NULL DEFAULT '{}',
    "query" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "starred_queries_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "dashboards" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "org_id" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "owner" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "updated_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "dashboards_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "organizations_claim_secret_hash_key" ON "organizations"("claim_secret_hash");

-- CreateIndex
CREATE INDEX "organizations_provisioned_from_idx" ON "organizations"("provisioned_from");

-- CreateIndex
CREATE INDEX "organizations_expires_at_idx" ON "organizations"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "roles_org_id_name_key" ON "roles"("org_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "groups_org_id_name_key" ON "groups"("org_id", "name");

-- CreateIndex
CREATE INDEX "group_roles_role_idx" ON "group_roles"("role");

-- CreateIndex
CREATE INDEX "group_members_user_id_idx" ON "group_members"("user_id");

-- CreateIndex
CREATE INDEX "annotations_org_id_time_idx" ON "annotations"("org_id", "time");

-- CreateIndex
CREATE INDEX "annotation_datasets_dataset_idx" ON "annotation_datasets"("dataset");

-- CreateIndex
CREATE INDEX "starred_queries_org_id_who_idx" ON "starred_queries"("org_id", "who");

-- CreateIndex
CREATE UNIQUE INDEX "dashboards_org_id_uid_key" ON "dashboards"("org_id", "uid");
