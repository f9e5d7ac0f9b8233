-- CreateTable
CREATE TABLE "catalog_refreshes" (
    "source" TEXT COLLATE "C" NOT NULL,
    "etag" TEXT COLLATE "C",
    "last_modified" TEXT COLLATE "C",
    "checked_at" TIMESTAMP(3),
    "refreshed_at" TIMESTAMP(3),
    "status" TEXT COLLATE "C" NOT NULL DEFAULT 'pending',
    "error" TEXT COLLATE "C",

    CONSTRAINT "catalog_refreshes_pkey" PRIMARY KEY ("source")
);
