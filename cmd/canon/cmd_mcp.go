package main

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

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
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP on `ADDR`: a loopback address such as 127.0.0.1:7777 (every request carries the bearer token printed at start), or unix:PATH (a socket only you can open)"},
			&cli.StringFlag{Name: "token-file", Usage: "with --http: the bearer token is the one line of `FILE`, which only you can read (chmod 600), instead of a new one printed at start"},
			&cli.StringSliceFlag{Name: "allow-origin", Usage: "with --http: accept requests a browser sends from `ORIGIN` (scheme://host:port) besides the server's own address"},
			&cli.DurationFlag{Name: "idle-timeout", Value: 30 * time.Minute, Usage: "with --http: end a session silent for `DURATION`"},
		},
		Action: func(c *cli.Context) error {
			dir := c.String("repo")
			if dir == "" {
				dir = os.Getenv("CANON_REPO")
			}
			if dir != "" {
				e.dir = dir
			}
			if addr := c.String("http"); addr != "" {
				if err := checkHTTPFlags(c, addr); err != nil {
					return err
				}
			}
			srv, err := mcpserver.New(e.dir, version)
			if err != nil {
				return err
			}
			defer srv.Close()
			if addr := c.String("http"); addr != "" {
				return e.serveHTTP(c, srv, addr)
			}
			for _, f := range []string{"token-file", "allow-origin", "idle-timeout"} {
				if c.IsSet(f) {
					return fail(2, "--%s goes with --http", f)
				}
			}
			return srv.Run(c.Context)
		},
	}
}

// checkHTTPFlags refuses --http flags that cannot serve, before the
// repository opens.
func checkHTTPFlags(c *cli.Context, addr string) error {
	if err := mcpserver.CheckAddr(addr); err != nil {
		return fail(2, "%v", err)
	}
	for _, o := range c.StringSlice("allow-origin") {
		if u, err := url.Parse(o); err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return fail(2, "--allow-origin %s is not an origin; give scheme://host:port, as a browser sends it (http://localhost:5173)", o)
		}
	}
	if c.Duration("idle-timeout") <= 0 {
		return fail(2, "--idle-timeout %s is not a duration above zero (30m, 2h)", c.Duration("idle-timeout"))
	}
	return nil
}

// serveHTTP serves streamable HTTP on addr: with the --token-file's token,
// else a new one printed once, or through a Unix socket only the user can
// open (a token only when --token-file gives one).
func (e *env) serveHTTP(c *cli.Context, srv *mcpserver.Server, addr string) error {
	o := mcpserver.HTTP{Addr: addr, AllowOrigins: c.StringSlice("allow-origin"), IdleTimeout: c.Duration("idle-timeout")}
	printed := false
	switch file := c.String("token-file"); {
	case file != "":
		tok, err := mcpserver.ReadTokenFile(file)
		if err != nil {
			return fail(2, "%v", err)
		}
		o.Token = tok
	case !strings.HasPrefix(addr, "unix:"):
		o.Token, printed = mcpserver.NewToken(), true
	}
	o.Ready = func(at string) {
		if strings.HasPrefix(at, "unix:") {
			e.notef("serving MCP on %s (only you can open it)", at)
		} else {
			e.notef("serving MCP on http://%s/", at)
		}
		if printed {
			fmt.Fprintf(e.stderr, "canon: clients send this token with every request, as the header\n  Authorization: Bearer %s\n(it is printed only now; --token-file FILE keeps one across restarts)\n", o.Token)
		}
	}
	if err := srv.ServeHTTP(c.Context, o); err != nil {
		return fail(1, "%v", err)
	}
	return nil
}
