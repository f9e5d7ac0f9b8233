-- CreateTable
CREATE TABLE "dataset_map_fields" (
    "dataset_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dataset_map_fields_pkey" PRIMARY KEY ("dataset_id","name")
);

-- AddForeignKey
ALTER TABLE "dataset_map_fields" ADD CONSTRAINT "dataset_map_fields_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
