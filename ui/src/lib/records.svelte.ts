// The records every screen shows, loaded together so the screens agree with each other.

import { api, insideApp } from "./api";
import { describe } from "./words";
import type { ApiError, CatalogEntry, HostView, IsoMapEntry, KeyInfo, Network, Overview, ServerGroup } from "./types";

class Records {
  overview = $state<Overview | null>(null);
  groups = $state<ServerGroup[]>([]);
  networks = $state<Network[]>([]);
  hosts = $state<HostView[]>([]);
  isoMap = $state<IsoMapEntry[]>([]);
  keys = $state<KeyInfo[]>([]);
  catalog = $state<CatalogEntry[]>([]);
  /** `ok` once loaded, else why not (in words). */
  status = $state({ label: "starting…", cls: "" });
  /** In a browser the REST API wants the token; the window needs none. */
  needsToken = $state(false);

  /** Read the hosts again (their install status moves while the rest stays). */
  async refreshHosts(): Promise<void> {
    try {
      this.hosts = await api.host_views_list();
    } catch {
      // The next full refresh says why.
    }
  }

  /** Load everything again; screens call it after a change. */
  async refresh(): Promise<void> {
    try {
      const [overview, groups, networks, hosts, isoMap, keys, catalog] = await Promise.all([
        api.overview_summary(),
        api.server_groups_list(),
        api.networks_list(),
        api.host_views_list(),
        api.isos_map(),
        api.keys_details(),
        this.catalog.length ? Promise.resolve(this.catalog) : api.catalog_details(),
      ]);
      Object.assign(this, { overview, groups, networks, hosts, isoMap, keys, catalog });
      this.status = { label: "ok", cls: "ok" };
      this.needsToken = false;
    } catch (e) {
      this.status = { label: describe(e), cls: "error" };
      this.needsToken = !insideApp() && (e as Partial<ApiError>)?.code === "unauthorized";
    }
  }
}

export const records = new Records();
