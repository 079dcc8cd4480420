package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/web"
)

// defaultServeAddr is where canon serve listens unless told: a fixed
// loopback port, so that a bookmark keeps working across restarts (the
// token does not: each start prints a new one).
const defaultServeAddr = "127.0.0.1:7474"

func serveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve a board to look at in a browser: work by state, items with their graph, branches, problems, search (loopback only)",
		Description: "Pages: the board (a column per state, filters by kind, assignee, parent, label and text), an item\n" +
			"(its text, frontmatter, edges, problems, versions on other branches, a picture of its neighbourhood),\n" +
			"branches, problems and search. Pages follow commits, checkouts and edits live. canon serve listens on\n" +
			"this machine only and prints a URL with a token: open it; the token becomes a cookie. The repository:\n" +
			"--repo, else CANON_REPO, else the working folder. --json prints the start line as JSON: {url, addr, token}.\n" +
			"A card's menu moves it to another state (canon set) or claims it (canon claim, as CANON_AGENT or git's\n" +
			"user.name unless the page says), with their refusals; the file is written and the index synced, and\n" +
			"with --commit each move and claim is committed alone, as canon set --commit does.",
		Flags: []cli.Flag{
			repoFlag,
			&cli.StringFlag{Name: "http", Value: defaultServeAddr, Usage: "listen on `ADDR`: a loopback address (127.0.0.1:PORT, localhost:PORT, [::1]:PORT; port 0 picks one) or unix:PATH"},
			&cli.BoolFlag{Name: "commit", Usage: "commit each move and claim made on the board alone (git commit --only; the hooks run)"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			e.serverRepo(c)
			addr := c.String("http")
			if err := web.CheckAddr(addr); err != nil { // refused before the repository opens
				return fail(2, "%v", err)
			}
			srv, err := web.New(c.Context, e.dir)
			if err != nil {
				return err
			}
			defer srv.Close()
			o := web.Options{Addr: addr, Token: web.NewToken(), Commit: c.Bool("commit")}
			o.Ready = func(at string) { e.serveReady(at, o.Token, c.Bool("json")) }
			if err := srv.Serve(c.Context, o); err != nil {
				return fail(1, "%v", err)
			}
			return nil
		},
	}
}

// serveReady prints where the board is, with its token: the URL to open
// (on stdout, so that a script can read it), or the JSON start line.
func (e *env) serveReady(at, token string, asJSON bool) {
	url := "http://" + at + "/?token=" + token
	if strings.HasPrefix(at, "unix:") {
		url = ""
	}
	if asJSON {
		data, _ := json.Marshal(map[string]string{"url": url, "addr": at, "token": token}) // strings only
		fmt.Fprintln(e.stdout, string(data))
		return
	}
	if url == "" {
		fmt.Fprintf(e.stdout, "canon serve: listening on %s (only you can open it); send the cookie canon_serve=%s, or ?token=%s once\n", at, token, token)
		return
	}
	fmt.Fprintf(e.stdout, "canon serve: open %s\n", url)
	e.notef("the token in the URL is printed only now; stop with Ctrl-C")
}
