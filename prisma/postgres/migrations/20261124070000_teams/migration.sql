-- AlterTable
ALTER TABLE "organizations" ADD COLUMN "expires_at" TIMESTAMP(3),
ADD COLUMN "claim_secret_hash" TEXT COLLATE "C",
ADD COLUMN "provisioned_from" TEXT COLLATE "C";

-- AlterTable
ALTER TABLE "tokens" ADD COLUMN "view_capabilities" TEXT COLLATE "C" NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "roles" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "description" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "dataset_capabilities" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "org_capabilities" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "view_capabilities" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "roles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "groups" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "description" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "group_roles" (
    "group_id" TEXT COLLATE "C" NOT NULL,
    "role" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "group_roles_pkey" PRIMARY KEY ("group_id","role")
);

-- CreateTable
CREATE TABLE "group_members" (
    "group_id" TEXT COLLATE "C" NOT NULL,
    "user_id" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "group_members_pkey" PRIMARY KEY ("group_id","user_id")
);

-- CreateTable
CREATE TABLE "annotations" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "type" TEXT COLLATE "C" NOT NULL,
    "title" TEXT COLLATE "C",
    "description" TEXT COLLATE "C",
    "url" TEXT COLLATE "C",
    "time" TIMESTAMP(3) NOT NULL,
    "end_time" TIMESTAMP(3),
    "created_by" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "annotations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "annotation_datasets" (
    "annotation_id" TEXT COLLATE "C" NOT NULL,
    "dataset" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "annotation_datasets_pkey" PRIMARY KEY ("annotation_id","dataset")
);

-- CreateTable
CREATE TABLE "starred_queries" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "kind" TEXT COLLATE "C" NOT NULL DEFAULT 'apl',
    "name" TEXT COLLATE "C" NOT NULL,
    "dataset" TEXT COLLATE "C",
    "who" TEXT COLLATE "C" NOT NULL,
    "metadata" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "query" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "starred_queries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboards" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "uid" TEXT COLLATE "C" NOT NULL,
    "version" INTEGER NOT NULL,
    "owner" TEXT COLLATE "C" NOT NULL,
    "document" TEXT COLLATE "C" NOT NULL,
    "created_by" TEXT COLLATE "C" NOT NULL,
    "updated_by" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "dashboards_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "roles" ADD CONSTRAINT "roles_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "groups" ADD CONSTRAINT "groups_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "group_roles" ADD CONSTRAINT "group_roles_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "annotation_datasets" ADD CONSTRAINT "annotation_datasets_annotation_id_fkey" FOREIGN KEY ("annotation_id") REFERENCES "annotations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "starred_queries" ADD CONSTRAINT "starred_queries_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dashboards" ADD CONSTRAINT "dashboards_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
