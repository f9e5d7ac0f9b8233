-- PostgreSQL twin of prisma/migrations/20261122000000_init. Text columns use the "C" collation
-- so that names sort and compare by code point, as on SQLite, whatever the database's locale.

-- CreateTable
CREATE TABLE "catalog_models" (
    "id" TEXT COLLATE "C" NOT NULL,
    "provider_id" TEXT COLLATE "C" NOT NULL,
    "position" INTEGER NOT NULL,
    "record" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "catalog_models_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_syncs" (
    "id" SERIAL NOT NULL,
    "source" TEXT COLLATE "C" NOT NULL,
    "source_kind" TEXT COLLATE "C" NOT NULL,
    "synced_at" TIMESTAMP(3) NOT NULL,
    "models_read" INTEGER NOT NULL,
    "models_skipped" INTEGER NOT NULL,
    "models_written" INTEGER NOT NULL,
    "skip_reasons" TEXT COLLATE "C" NOT NULL DEFAULT '{}',

    CONSTRAINT "catalog_syncs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "organizations" (
    "id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "email" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "user_id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "role" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("user_id","org_id")
);

-- CreateTable
CREATE TABLE "tokens" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C",
    "user_id" TEXT COLLATE "C",
    "kind" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "description" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "secret_hash" TEXT COLLATE "C" NOT NULL,
    "dataset_capabilities" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "org_capabilities" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT COLLATE "C",

    CONSTRAINT "tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "datasets" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "description" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "kind" TEXT COLLATE "C" NOT NULL DEFAULT 'axiom:events:v1',
    "retention_days" INTEGER NOT NULL DEFAULT 0,
    "use_retention_period" BOOLEAN NOT NULL DEFAULT false,
    "table_name" TEXT COLLATE "C" NOT NULL,
    "created_by" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "datasets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dataset_fields" (
    "dataset_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "type" TEXT COLLATE "C" NOT NULL,
    "unit" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "description" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "column_name" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dataset_fields_pkey" PRIMARY KEY ("dataset_id","name")
);

-- CreateTable
CREATE TABLE "server_settings" (
    "key" TEXT COLLATE "C" NOT NULL,
    "value" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "server_settings_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "catalog_models_provider_id_idx" ON "catalog_models"("provider_id");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "memberships_org_id_idx" ON "memberships"("org_id");

-- CreateIndex
CREATE UNIQUE INDEX "tokens_secret_hash_key" ON "tokens"("secret_hash");

-- CreateIndex
CREATE INDEX "tokens_org_id_idx" ON "tokens"("org_id");

-- CreateIndex
CREATE INDEX "tokens_user_id_idx" ON "tokens"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "datasets_table_name_key" ON "datasets"("table_name");

-- CreateIndex
CREATE UNIQUE INDEX "datasets_org_id_name_key" ON "datasets"("org_id", "name");

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dataset_fields" ADD CONSTRAINT "dataset_fields_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
