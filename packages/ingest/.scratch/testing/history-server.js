/** Creates an empty {@link HistoryServer}; environments are named `MCID_replay_<n>`. */
export function createHistoryServer() {
    const environments = new Map();
    return {
        store(ids, webEnv) {
            let name = webEnv;
            let sets = name === undefined ? undefined : environments.get(name);
            if (name === undefined || sets === undefined) {
                name = `MCID_replay_${environments.size + 1}`;
                sets = [];
                environments.set(name, sets);
            }
            sets.push([...ids]);
            return { webEnv: name, queryKey: String(sets.length) };
        },
        get(webEnv, queryKey) {
            return environments.get(webEnv)?.[Number(queryKey) - 1];
        },
    };
}
