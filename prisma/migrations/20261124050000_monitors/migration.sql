-- CreateTable
CREATE TABLE "notifiers" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "org_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "disabled_until" DATETIME,
    "created_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "notifiers_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "monitors" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "org_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "type" TEXT NOT NULL,
    "apl_query" TEXT NOT NULL,
    "operator" TEXT,
    "threshold" REAL,
    "column_name" TEXT,
    "interval_minutes" INTEGER NOT NULL,
    "range_minutes" INTEGER NOT NULL,
    "alert_on_no_data" BOOLEAN NOT NULL DEFAULT false,
    "notify_by_group" BOOLEAN NOT NULL DEFAULT false,
    "notify_every_run" BOOLEAN NOT NULL DEFAULT false,
    "resolvable" BOOLEAN NOT NULL DEFAULT false,
    "skip_resolved" BOOLEAN NOT NULL DEFAULT false,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "disabled_until" DATETIME,
    "notifier_ids" TEXT NOT NULL DEFAULT '[]',
    "trigger_from_n_runs" INTEGER NOT NULL DEFAULT 1,
    "trigger_after_n_positive_results" INTEGER NOT NULL DEFAULT 1,
    "second_delay" INTEGER NOT NULL DEFAULT 0,
    "tolerance" REAL,
    "compare_days" INTEGER,
    "datasets" TEXT NOT NULL DEFAULT '[]',
    "created_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "monitors_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "monitor_states" (
    "monitor_id" TEXT NOT NULL PRIMARY KEY,
    "next_run_at" DATETIME NOT NULL,
    "last_scheduled_at" DATETIME,
    "last_run_at" DATETIME,
    "last_duration_ms" INTEGER,
    "last_error" TEXT,
    "alerts" TEXT NOT NULL DEFAULT '{}',
    "matched" TEXT NOT NULL DEFAULT '{}',
    CONSTRAINT "monitor_states_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "monitor_history" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "monitor_id" TEXT NOT NULL,
    "check_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "alert_key" TEXT NOT NULL DEFAULT '',
    "detail" TEXT NOT NULL DEFAULT '',
    "timestamp" DATETIME NOT NULL,
    CONSTRAINT "monitor_history_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "notification_outbox" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "org_id" TEXT NOT NULL,
    "monitor_id" TEXT NOT NULL,
    "notifier_id" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" DATETIME NOT NULL,
    "claimed_until" DATETIME,
    "last_error" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" DATETIME
);

-- CreateTable
CREATE TABLE "notifier_deliveries" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "notifier_id" TEXT NOT NULL,
    "outbox_id" TEXT NOT NULL,
    "monitor_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "attempted_at" DATETIME NOT NULL,
    CONSTRAINT "notifier_deliveries_notifier_id_fkey" FOREIGN KEY ("notifier_id") REFERENCES "notifiers" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
