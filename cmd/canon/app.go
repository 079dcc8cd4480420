package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/clirun"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/hooks"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
)

// fail makes an error with an exit code; the message is one plain sentence
// plus the fix.
func fail(code int, format string, args ...any) error { return clirun.Fail(code, format, args...) }

// beyond is what err says beyond the sentinel it wraps ("SENTINEL: rest"):
// the sentence a usage error shows without the sentinel's own words.
func beyond(err, sentinel error) string {
	return strings.TrimPrefix(err.Error(), sentinel.Error()+": ")
}

// env is what every command gets: where to write, and the working folder.
type env struct {
	stdout, stderr io.Writer
	// rawStderr is stderr itself, for the progress bar: a terminal's
	// own controls, which stderr (human.Terminal) would quote.
	rawStderr io.Writer
	dir       string
	// ctx is the command's context, cancelled by SIGINT and SIGTERM
	// (clirun): what opening the index waits on (a schema migration
	// another process runs). Set before any command runs.
	ctx context.Context
}

var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print JSON (a stable, documented shape)"}

func run(args []string, stdout, stderr io.Writer) int {
	// Whatever a command prints, no control character of the
	// repository's text reaches the terminal (ADR-0033).
	e := &env{stdout: human.Terminal(stdout), stderr: human.Terminal(stderr), rawStderr: stderr}
	if isPostHook(args) {
		e.dir = "."
		return clirun.Direct(e.stderr, func(ctx context.Context) int { e.ctx = ctx; return e.hook(ctx, args[2], args[3:]) })
	}
	if isMergeDriver(args) {
		e.dir = "."
		return clirun.Direct(e.stderr, func(ctx context.Context) int { e.ctx = ctx; return e.mergeDriver(ctx, args[2:]) })
	}
	return clirun.Run(newApp(e), args, e.stderr, explain)
}

// explain turns an error into the sentence canon prints: a usage error's
// own, a reference that names nothing with the search to try, else
// gitsync.Explain's.
func explain(err error) string {
	var ee *clirun.Exit
	var nf *index.NotFoundError
	switch {
	case errors.As(err, &ee):
		return ee.Msg
	case errors.As(err, &nf):
		return fmt.Sprintf("%v; try canon search %q", nf, nf.Ref)
	}
	return gitsync.Explain(err, indexPathHint)
}

// indexPathHint is the index of the repository canon runs in, for error
// messages; set when a session opens.
var indexPathHint string

func newApp(e *env) *cli.App {
	app := &cli.App{
		Name:    "canon",
		Usage:   "keep a searchable index and graph of Markdown backlogs, ADRs and notes in step with git",
		Version: versionLine(version, commit, date, debug.ReadBuildInfo),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "C", Usage: "run as if canon was started in `DIR`", Value: "."},
			cli.HelpFlag, // urfave/cli adds it only beside its own help command, which helpCommand replaces
		},
		Before: func(c *cli.Context) error {
			e.dir, e.ctx = c.String("C"), c.Context
			if info, err := os.Stat(e.dir); err != nil || !info.IsDir() {
				return fail(2, "there is no folder %s; give -C a folder inside a repository", e.dir)
			}
			return nil
		},
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		HideHelpCommand: true,                         // canon help is helpCommand (it has --json)
		ExitErrHandler:  func(*cli.Context, error) {}, // run() prints errors
		Commands: []*cli.Command{
			initCommand(e),
			indexCommand(e),
			statusCommand(e),
			searchCommand(e),
			vectorsCommand(e),
			showCommand(e),
			problemsCommand(e),
			checkCommand(e),
			syncCommand(e),
			watchCommand(e),
			verifyCommand(e),
			hooksCommand(e),
			hookCommand(e),
			graphCommand(e),
			contextCommand(e),
			scopeCommand(e),
			readyCommand(e),
			blockedCommand(e),
			branchesCommand(e),
			queryCommand(e),
			worksetCommand(e),
			promoteCommand(e),
			idCommand(e),
			newCommand(e),
			setCommand(e),
			claimCommand(e),
			doneCommand(e),
			logCommand(e),
			mcpCommand(e),
			serveCommand(e),
			agentsCommand(e),
			mergeDriverCommand(e),
			helpCommand(e),
		},
		CommandNotFound: func(c *cli.Context, name string) {
			where := "canon"
			if c.Command != nil && c.Command.Name != "" && c.Command.Name != "canon" {
				where = "canon " + c.Command.Name // canon scope list
			}
			fmt.Fprintf(e.stderr, "canon: error: there is no command %q; run %s --help for the list\n", name, where)
			os.Exit(2)
		},
	}
	noHelpArgument(app.Commands)
	return app
}

// noHelpArgument keeps "help" and "h" as a command's argument: urfave/cli
// gives every command a help subcommand, so `canon workset new h` printed
// the help and made nothing (exit 0), and `canon show h` never looked up
// h. A command with subcommands keeps it (canon workset help new).
func noHelpArgument(cmds []*cli.Command) {
	for _, c := range cmds {
		if len(c.Subcommands) == 0 {
			c.HideHelpCommand = true
			continue
		}
		noHelpArgument(c.Subcommands)
	}
}

// open starts a session in the working folder, catches up with HEAD and
// takes in the working tree's edits, so that the command answers for the
// files as they are (ADR-0081).
func (e *env) open(c *cli.Context, who string) (*gitsync.Session, error) {
	s, err := e.openNoSync(who)
	if err != nil {
		return nil, err
	}
	res, taken, err := s.Current(c.Context)
	if err != nil {
		s.Close()
		return nil, err
	}
	if res.Action == gitsync.ActionRebuild && res.Reason == "" && res.Stats != nil {
		e.notef("built the index: %d documents", res.Stats.Documents)
	}
	if taken > 0 {
		e.notef("took in %s edited since the last sync", human.Plural(taken, "file"))
	}
	if n, why := s.Untaken(); n > 0 {
		e.notef("this answer leaves out %s edited since the last sync, because %v; the next command takes them in when it can", human.Plural(n, "file"), why)
	}
	return s, nil
}

func (e *env) openNoSync(who string) (*gitsync.Session, error) {
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return e.opened(gitsync.OpenContext(ctx, e.dir, who))
}

// opened sets up a session the way every command wants it: notes on
// stderr, every sync told to the worksets (docs/architecture.md), progress on a
// terminal.
func (e *env) opened(s *gitsync.Session, err error) (*gitsync.Session, error) {
	if err != nil {
		if r, derr := gitsync.Discover(e.dir); derr == nil {
			indexPathHint = r.ShownIndexPath()
		}
		return nil, err
	}
	indexPathHint = s.Repo.ShownIndexPath()
	if p := hooks.MergeDriverState(context.Background(), s.Repo).Problem(); p != "" {
		e.notef("%s", p) // a fresh clone of a repository that uses the driver
	}
	s.Note = func(msg string) { e.notef("%s", msg) }
	s.OnSync(hooks.TellWorksets(func(msg string) { e.notef("%s", msg) }, nil))
	s.Progress = human.Progress(e.rawStderr) // nil unless stderr is a terminal
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	hooks.FinishWrites(ctx, s, s.Note) // a write a killed command left, before anything reads the files
	return s, nil
}

func (e *env) notef(format string, args ...any) {
	fmt.Fprintf(e.stderr, "canon: "+format+"\n", args...)
}

// output is what a command prints: its documented JSON with --json (the
// value JSON() returns, when it has that method), else its text. A result
// with a non-zero ExitCode ends the command with that code; one with an
// Err ends it with that error after printing.
type output interface{ WriteText(io.Writer) error }

func (e *env) print(c *cli.Context, v output) error {
	var err error
	if c.Bool("json") {
		var shape any = v
		if j, ok := v.(interface{ JSON() any }); ok {
			shape = j.JSON()
		}
		err = writeJSON(e.stdout, shape)
	} else {
		err = v.WriteText(e.stdout)
	}
	if err != nil {
		return err
	}
	if x, ok := v.(interface{ ExitCode() int }); ok && x.ExitCode() != 0 {
		return clirun.Quiet(x.ExitCode())
	}
	if x, ok := v.(interface{ Err() error }); ok {
		return x.Err() // the sentence that ends what was printed (promote refused)
	}
	return nil
}

// with opens a session caught up with HEAD, makes the command's one call
// and prints what it returns.
func (e *env) with(c *cli.Context, who string, call func(s *gitsync.Session) (output, error)) error {
	return e.printed(c, call)(e.open(c, who))
}

// withIndex is with for the commands that sync the index their own way
// (status reports it as it is, sync and index reconcile, init rebuilds).
func (e *env) withIndex(c *cli.Context, who string, call func(s *gitsync.Session) (output, error)) error {
	return e.printed(c, call)(e.openNoSync(who))
}

// printed makes the call on an opened session, closes it and prints.
func (e *env) printed(c *cli.Context, call func(s *gitsync.Session) (output, error)) func(*gitsync.Session, error) error {
	return func(s *gitsync.Session, err error) error {
		if err != nil {
			return err
		}
		defer s.Close()
		v, err := call(s)
		if nn := (*index.NothingNamed)(nil); errors.As(err, &nn) {
			return fail(2, "--%s: %s", nn.Flag, nn.Msg) // --kind nope: a usage error
		}
		if ae := (*gitsync.ArgsError)(nil); errors.As(err, &ae) {
			return fail(2, "%s", ae.Msg) // arguments a use case refused
		}
		if err != nil || v == nil { // nil: the call wrote its own output
			return err
		}
		err = e.print(c, v)
		e.autoWatch(s) // after the answer: the command does not wait for it
		return err
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
