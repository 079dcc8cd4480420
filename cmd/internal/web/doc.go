// Package web is canon's third front end: canon serve, a board people
// look at in a browser. Like the CLI and the MCP server it only turns
// requests into calls on the use cases (usecase, gitsync.Session, graph,
// index/search) and renders their answers, here as HTML pages from
// embedded templates, a style sheet and one script (no CDN, no build
// step: it works offline).
//
// What it adds is its own: one long-lived session that every request
// catches up first (as canon mcp's), a hub that tells the open pages of
// each sync over server-sent events, and the guard every request passes
// (ADR-0077): a loopback address or a Unix socket, a token set as a
// cookie, the Host and Origin a page of its own sends, and a strict
// Content-Security-Policy. Every document is attacker input: Markdown is
// rendered by goldmark and sanitised by bluemonday, and every other text
// goes through html/template's escaping.
package web
