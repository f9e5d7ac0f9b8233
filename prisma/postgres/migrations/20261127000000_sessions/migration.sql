-- AlterTable
ALTER TABLE "users" ADD COLUMN "password_hash" TEXT COLLATE "C",
ADD COLUMN "password_set_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT COLLATE "C" NOT NULL,
    "user_id" TEXT COLLATE "C" NOT NULL,
    "secret_hash" TEXT COLLATE "C" NOT NULL,
    "csrf_token" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMP(3) NOT NULL,
    "idle_expires_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "ip" TEXT COLLATE "C",
    "user_agent" TEXT COLLATE "C",

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "login_links" (
    "id" TEXT COLLATE "C" NOT NULL,
    "kind" TEXT COLLATE "C" NOT NULL,
    "user_id" TEXT COLLATE "C" NOT NULL,
    "secret_hash" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C",
    "role" TEXT COLLATE "C",
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),

    CONSTRAINT "login_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sessions_secret_hash_key" ON "sessions"("secret_hash");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "login_links_secret_hash_key" ON "login_links"("secret_hash");

-- CreateIndex
CREATE INDEX "login_links_user_id_idx" ON "login_links"("user_id");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "login_links" ADD CONSTRAINT "login_links_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
