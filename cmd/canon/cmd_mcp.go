package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/mcpserver"
)

// repoFlag names the repository a server serves (canon mcp, canon
// serve): it starts from anywhere, as an agent's or an editor's
// configuration starts it.
var repoFlag = &cli.StringFlag{Name: "repo", Usage: "the repository `DIR` (default: CANON_REPO, else the working folder)"}

// serverRepo points a server at the repository it serves: --repo, else
// CANON_REPO, else the working folder.
func (e *env) serverRepo(c *cli.Context) {
	dir := c.String("repo")
	if dir == "" {
		dir = os.Getenv("CANON_REPO")
	}
	if dir != "" {
		e.dir = dir
	}
}

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
			repoFlag,
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP on `ADDR`: a loopback address such as 127.0.0.1:7777 (every request carries the bearer token printed at start), or unix:PATH (a socket only you can open)"},
			&cli.StringFlag{Name: "token-file", Usage: "with --http: the bearer token is the one line of `FILE`, which only you can read (chmod 600), instead of a new one printed at start"},
			&cli.StringSliceFlag{Name: "allow-origin", Usage: "with --http: accept requests a browser sends from `ORIGIN` (scheme://host:port) besides the server's own address"},
			&cli.DurationFlag{Name: "idle-timeout", Value: 30 * time.Minute, Usage: "with --http: end a session silent for `DURATION`"},
		},
		Action: func(c *cli.Context) error {
			e.serverRepo(c)
			addr := c.String("http")
			if addr == "" {
				for _, f := range []string{"token-file", "allow-origin", "idle-timeout"} {
					if c.IsSet(f) {
						return fail(2, "--%s goes with --http", f)
					}
				}
			}
			var o mcpserver.HTTP
			printed := false
			if addr != "" { // refused before the repository opens
				var err error
				if o, printed, err = mcpserver.PrepareHTTP(addr, c.String("token-file"), c.StringSlice("allow-origin"), c.Duration("idle-timeout")); err != nil {
					return fail(2, "%v", err)
				}
			}
			srv, err := mcpserver.New(c.Context, e.dir, version)
			if err != nil {
				return err
			}
			defer srv.Close()
			if addr == "" {
				return srv.Run(c.Context)
			}
			o.Ready = func(at string) { e.httpReady(at, o.Token, printed) }
			if err := srv.ServeHTTP(c.Context, o); err != nil {
				return fail(1, "%v", err)
			}
			return nil
		},
	}
}

// httpReady says where the server listens and, when canon made the token,
// the token: printed only this once.
func (e *env) httpReady(at, token string, printed bool) {
	if strings.HasPrefix(at, "unix:") {
		e.notef("serving MCP on %s (only you can open it)", at)
	} else {
		e.notef("serving MCP on http://%s/", at)
	}
	if printed {
		fmt.Fprintf(e.stderr, "canon: clients send this token with every request, as the header\n  Authorization: Bearer %s\n(it is printed only now; --token-file FILE keeps one across restarts)\n", token)
	}
}
