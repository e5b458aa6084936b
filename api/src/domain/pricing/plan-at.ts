/** An account's move to another plan, effective from an instant (not retroactive). */
export interface PlanChange {
  plan: string;
  effective_from: Date;
}

/** The plan in force at `at`: the latest change effective by then, else the plan the account started on. */
export function planAt(account: { plan: string; planChanges?: PlanChange[] }, at: Date): string {
  let plan = account.plan;
  let since = -Infinity;
  for (const change of account.planChanges ?? []) {
    const from = new Date(change.effective_from).getTime();
    if (from <= at.getTime() && from >= since) {
      plan = change.plan;
      since = from;
    }
  }
  return plan;
}
