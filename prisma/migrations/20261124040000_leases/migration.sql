-- CreateTable
CREATE TABLE "leases" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "acquired_at" DATETIME NOT NULL,
    "expires_at" DATETIME NOT NULL
);
