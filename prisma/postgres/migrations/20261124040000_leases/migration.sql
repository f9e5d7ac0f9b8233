-- CreateTable
CREATE TABLE "leases" (
    "name" TEXT COLLATE "C" NOT NULL,
    "holder" TEXT COLLATE "C" NOT NULL,
    "acquired_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "leases_pkey" PRIMARY KEY ("name")
);
