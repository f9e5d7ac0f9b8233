-- CreateTable
CREATE TABLE "virtual_fields" (
    "id" TEXT COLLATE "C" NOT NULL,
    "dataset_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "expression" TEXT COLLATE "C" NOT NULL,
    "description" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "type" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "unit" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL,
    "created_by" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "virtual_fields_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "virtual_fields_dataset_id_name_key" ON "virtual_fields"("dataset_id", "name");

-- AddForeignKey
ALTER TABLE "virtual_fields" ADD CONSTRAINT "virtual_fields_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
