-- CreateTable
CREATE TABLE "views" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "description" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "apl_query" TEXT COLLATE "C" NOT NULL,
    "created_by" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "views_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "views_org_id_name_key" ON "views"("org_id", "name");

-- AddForeignKey
ALTER TABLE "views" ADD CONSTRAINT "views_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
