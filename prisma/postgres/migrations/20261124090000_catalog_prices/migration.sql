-- PostgreSQL twin of prisma/migrations/20261124090000_catalog_prices.

-- CreateTable
CREATE TABLE "catalog_prices" (
    "id" SERIAL NOT NULL,
    "model_id" TEXT COLLATE "C" NOT NULL,
    "provider_id" TEXT COLLATE "C" NOT NULL,
    "valid_from" TIMESTAMP(3),
    "valid_to" TIMESTAMP(3),
    "input_cost_per_token" DOUBLE PRECISION NOT NULL,
    "output_cost_per_token" DOUBLE PRECISION NOT NULL,
    "cache_read_cost_per_token" DOUBLE PRECISION,
    "cache_write_cost_per_token" DOUBLE PRECISION,
    "sync_id" INTEGER NOT NULL,

    CONSTRAINT "catalog_prices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "catalog_prices_model_id_idx" ON "catalog_prices"("model_id");
