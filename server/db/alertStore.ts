/**
 * What alert evaluation reads and keeps (server/alerts/alertService.ts): every stored alert with its
 * owner's subscription (the alerts themselves are items of the collection 'alerts',
 * server/db/userDataStore.ts), and the alert_evaluations table (server/db/migrations.ts step 2),
 * the last evaluation of each alert with the valid times already notified.
 */

import type { Database } from './database.ts';

/** A stored alert as its JSON text, with its owner's subscription JSON (null: none). */
export interface StoredAlertRow {
  userId: string;
  alertId: string;
  json: string;
  subscription: string | null;
}

export interface EvaluationRecord {
  product: string;
  refTime: number;
  /** Valid times (ms) when every condition holds. */
  timestamps: readonly number[];
  /** Valid times already notified. */
  notified: readonly number[];
  evaluated: number;
}

export class AlertStore {
  constructor(private readonly db: Database) {}

  /** Every user's stored alerts, in the order they were made. */
  async allAlerts(): Promise<StoredAlertRow[]> {
    const rows = await this.db.all<{ user_id: string; id: string; value: string; subscription: string | null }>(
      "SELECT i.user_id, i.id, i.value, u.subscription FROM user_items i JOIN users u ON u.id = i.user_id WHERE i.collection = 'alerts' ORDER BY i.created",
    );
    return rows.map((r) => ({ userId: r.user_id, alertId: r.id, json: r.value, subscription: r.subscription }));
  }

  /** The valid times already notified for the alert (none when it was never evaluated). */
  async notifiedTimes(userId: string, alertId: string): Promise<number[]> {
    const row = await this.db.get<{ notified: string }>('SELECT notified FROM alert_evaluations WHERE user_id = ? AND alert_id = ?', [userId, alertId]);
    return row ? (JSON.parse(row.notified) as number[]) : [];
  }

  /** Keeps the alert's latest evaluation (replacing the one before). */
  async saveEvaluation(userId: string, alertId: string, evaluation: EvaluationRecord): Promise<void> {
    await this.db.run(
      `INSERT INTO alert_evaluations (user_id, alert_id, product, ref_time, timestamps, notified, evaluated) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, alert_id) DO UPDATE SET product = excluded.product, ref_time = excluded.ref_time, timestamps = excluded.timestamps,
         notified = excluded.notified, evaluated = excluded.evaluated`,
      [userId, alertId, evaluation.product, evaluation.refTime, JSON.stringify(evaluation.timestamps), JSON.stringify(evaluation.notified), evaluation.evaluated],
    );
  }
}
