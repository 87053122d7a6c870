/** A stand-in for NCBI's history server: id lists stored under a Web environment and query key. */
export interface HistoryServer {
  /**
   * Stores an id list and returns where it lives. With `webEnv`, the list joins that
   * environment under the next query key; without, a new environment is opened.
   */
  store(
    ids: readonly string[],
    webEnv?: string,
  ): { readonly webEnv: string; readonly queryKey: string }
  /** The ids stored under `webEnv`/`queryKey`, or `undefined`. */
  get(webEnv: string, queryKey: string): readonly string[] | undefined
}

/** Creates an empty {@link HistoryServer}; environments are named `MCID_replay_<n>`. */
export function createHistoryServer(): HistoryServer {
  const environments = new Map<string, Array<readonly string[]>>()
  return {
    store(ids, webEnv) {
      let name = webEnv
      let sets = name === undefined ? undefined : environments.get(name)
      if (name === undefined || sets === undefined) {
        name = `MCID_replay_${environments.size + 1}`
        sets = []
        environments.set(name, sets)
      }
      sets.push([...ids])
      return { webEnv: name, queryKey: String(sets.length) }
    },
    get(webEnv, queryKey) {
      return environments.get(webEnv)?.[Number(queryKey) - 1]
    },
  }
}
