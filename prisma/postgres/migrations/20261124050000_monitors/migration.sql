-- PostgreSQL twin of prisma/migrations/20261124050000_monitors.
-- CreateTable
CREATE TABLE "notifiers" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "channel" TEXT COLLATE "C" NOT NULL,
    "config" TEXT COLLATE "C" NOT NULL,
    "disabled_until" TIMESTAMP(3),
    "created_by" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notifiers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitors" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "description" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "type" TEXT COLLATE "C" NOT NULL,
    "apl_query" TEXT COLLATE "C" NOT NULL,
    "operator" TEXT COLLATE "C",
    "threshold" DOUBLE PRECISION,
    "column_name" TEXT COLLATE "C",
    "interval_minutes" INTEGER NOT NULL,
    "range_minutes" INTEGER NOT NULL,
    "alert_on_no_data" BOOLEAN NOT NULL DEFAULT false,
    "notify_by_group" BOOLEAN NOT NULL DEFAULT false,
    "notify_every_run" BOOLEAN NOT NULL DEFAULT false,
    "resolvable" BOOLEAN NOT NULL DEFAULT false,
    "skip_resolved" BOOLEAN NOT NULL DEFAULT false,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "disabled_until" TIMESTAMP(3),
    "notifier_ids" TEXT COLLATE "C" NOT NULL DEFAULT '[]',
    "trigger_from_n_runs" INTEGER NOT NULL DEFAULT 1,
    "trigger_after_n_positive_results" INTEGER NOT NULL DEFAULT 1,
    "second_delay" INTEGER NOT NULL DEFAULT 0,
    "tolerance" DOUBLE PRECISION,
    "compare_days" INTEGER,
    "datasets" TEXT COLLATE "C" NOT NULL DEFAULT '[]',
    "created_by" TEXT COLLATE "C" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "monitors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_states" (
    "monitor_id" TEXT COLLATE "C" NOT NULL,
    "next_run_at" TIMESTAMP(3) NOT NULL,
    "last_scheduled_at" TIMESTAMP(3),
    "last_run_at" TIMESTAMP(3),
    "last_duration_ms" INTEGER,
    "last_error" TEXT COLLATE "C",
    "alerts" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "matched" TEXT COLLATE "C" NOT NULL DEFAULT '{}',

    CONSTRAINT "monitor_states_pkey" PRIMARY KEY ("monitor_id")
);

-- CreateTable
CREATE TABLE "monitor_history" (
    "id" SERIAL NOT NULL,
    "monitor_id" TEXT COLLATE "C" NOT NULL,
    "check_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "state" TEXT COLLATE "C" NOT NULL,
    "alert_key" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "detail" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "timestamp" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "monitor_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_outbox" (
    "id" TEXT COLLATE "C" NOT NULL,
    "org_id" TEXT COLLATE "C" NOT NULL,
    "monitor_id" TEXT COLLATE "C" NOT NULL,
    "notifier_id" TEXT COLLATE "C" NOT NULL,
    "payload" TEXT COLLATE "C" NOT NULL,
    "status" TEXT COLLATE "C" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL,
    "claimed_until" TIMESTAMP(3),
    "last_error" TEXT COLLATE "C",
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "notification_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notifier_deliveries" (
    "id" SERIAL NOT NULL,
    "notifier_id" TEXT COLLATE "C" NOT NULL,
    "outbox_id" TEXT COLLATE "C" NOT NULL,
    "monitor_id" TEXT COLLATE "C" NOT NULL,
    "action" TEXT COLLATE "C" NOT NULL,
    "attempt" INTEGER NOT NULL,
    "outcome" TEXT COLLATE "C" NOT NULL,
    "status_code" INTEGER,
    "error" TEXT COLLATE "C",
    "duration_ms" INTEGER NOT NULL,
    "attempted_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notifier_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notifiers_org_id_idx" ON "notifiers"("org_id");

-- CreateIndex
CREATE INDEX "monitors_org_id_idx" ON "monitors"("org_id");

-- CreateIndex
CREATE INDEX "monitor_states_next_run_at_idx" ON "monitor_states"("next_run_at");

-- CreateIndex
CREATE INDEX "monitor_history_monitor_id_timestamp_idx" ON "monitor_history"("monitor_id", "timestamp");

-- CreateIndex
CREATE INDEX "notification_outbox_status_next_attempt_at_idx" ON "notification_outbox"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "notifier_deliveries_notifier_id_attempted_at_idx" ON "notifier_deliveries"("notifier_id", "attempted_at");

-- AddForeignKey
ALTER TABLE "notifiers" ADD CONSTRAINT "notifiers_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_states" ADD CONSTRAINT "monitor_states_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_history" ADD CONSTRAINT "monitor_history_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifier_deliveries" ADD CONSTRAINT "notifier_deliveries_notifier_id_fkey" FOREIGN KEY ("notifier_id") REFERENCES "notifiers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
