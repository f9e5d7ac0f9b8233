-- CreateTable
CREATE TABLE "catalog_prices" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "model_id" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "valid_from" DATETIME,
    "valid_to" DATETIME,
    "input_cost_per_token" REAL NOT NULL,
    "output_cost_per_token" REAL NOT NULL,
    "cache_read_cost_per_token" REAL,
    "cache_write_cost_per_token" REAL,
    "sync_id" INTEGER NOT NULL
);

-- CreateIndex
CREATE INDEX "catalog_prices_model_id_idx" ON "catalog_prices"("model_id");
