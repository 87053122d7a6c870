/**
 * Creates a fault plan.
 * @param steps - the initial steps
 */
export function createFaultPlan(steps = []) {
    const queue = steps.map((s) => ({ utility: s.utility, skip: s.skip ?? 0, fault: s.fault }));
    return {
        get pending() {
            return queue.length;
        },
        add(...more) {
            queue.push(...more.map((s) => ({ utility: s.utility, skip: s.skip ?? 0, fault: s.fault })));
        },
        next(utility) {
            const index = queue.findIndex((s) => s.utility === undefined || s.utility === utility);
            const step = queue[index];
            if (step === undefined) {
                return undefined;
            }
            if (step.skip > 0) {
                step.skip -= 1;
                return undefined;
            }
            queue.splice(index, 1);
            return step.fault;
        },
    };
}
