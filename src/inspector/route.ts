import { useEffect, useState } from "preact/hooks";

/** The views of the page. */
export type ViewName = "phones" | "events" | "webhooks" | "otp" | "chaos";

/** Where the page is: `#/<view>/<id>`, so a view and what it shows can be linked and reloaded. */
export interface PageRoute {
  view: ViewName;
  id: string | null;
}

const VIEWS: ViewName[] = ["phones", "events", "webhooks", "otp", "chaos"];

function parse(hash: string): PageRoute {
  const [view, id] = hash.replace(/^#\/?/, "").split("/");
  return {
    view: VIEWS.includes(view as ViewName) ? (view as ViewName) : "phones",
    id: id ? decodeURIComponent(id) : null,
  };
}

/** The link of a view (and what it shows). */
export const hrefOf = (view: ViewName, id?: string | null) => `#/${view}${id ? `/${encodeURIComponent(id)}` : ""}`;

/** The current route, following the address bar. */
export function useRoute(): PageRoute {
  const [route, setRoute] = useState(() => parse(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parse(location.hash));
    addEventListener("hashchange", follow);
    return () => removeEventListener("hashchange", follow);
  }, []);
  return route;
}

/** Goes to a view. */
export const go = (view: ViewName, id?: string | null) => void (location.hash = hrefOf(view, id));
