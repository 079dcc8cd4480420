package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/mcpserver"
)

func mcpCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve canon to agents over MCP (stdio; --http 127.0.0.1:PORT for streamable HTTP)",
		Description: "Tools: search, show, context, neighbors, ready, blocked, check, status, query_run,\n" +
			"workset_list, workset_show, workset_context, workset_resume, workset_new, note, promote; resources canon://doc/{key} and\n" +
			"canon://workset/{name}/plan|notes; a prompt per query template. Every result carries its freshness: the indexed\n" +
			"commit, HEAD, whether the index was behind, how many working-tree files differ from it, and\n" +
			"when it last synced. The repository: --repo, else CANON_REPO, else the working folder.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "repo", Usage: "the repository `DIR` (default: CANON_REPO, else the working folder)"},
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP on `ADDR` (a loopback address such as 127.0.0.1:7777)"},
		},
		Action: func(c *cli.Context) error {
			dir := c.String("repo")
			if dir == "" {
				dir = os.Getenv("CANON_REPO")
			}
			if dir != "" {
				e.dir = dir
			}
			srv, err := mcpserver.New(e.dir, version)
			if err != nil {
				return err
			}
			defer srv.Close()
			if addr := c.String("http"); addr != "" {
				if err := mcpserver.CheckAddr(addr); err != nil {
					return fail(2, "%v", err)
				}
				e.notef("serving MCP on http://%s", addr)
				return srv.ListenAndServe(addr)
			}
			return srv.Run(c.Context)
		},
	}
}
