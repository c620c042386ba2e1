"""The static site: plan, cache, pages, search, charts and render; `build.build_site` is its one entry point."""
