// Background work of the monitors (running them, delivering notifications) must happen once per
// deployment, even when several instances share one relational store. The scheduler and the
// delivery worker only work while `holds(name)` says this instance leads for that job; a
// lease in the relational store provides that across instances. One instance on its own
// always leads.

export interface Leadership {
  /**
   * True while this instance may run the job `name`. Called before every round of work, so an
   * implementation renews its lease here and answers false once another instance holds it.
   */
  holds(name: string): Promise<boolean>;
  /** Gives up every lease this instance holds (at shutdown), so another can take over at once. */
  release(): Promise<void>;
}

/** The leadership of a deployment with a single instance: it always leads. */
export const soleInstance: Leadership = {
  async holds() {
    return true;
  },
  async release() {},
};
