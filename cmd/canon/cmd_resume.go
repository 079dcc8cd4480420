package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/workset"
)

// Resumable work (ADR-0019): checkpoint, resume, export, import.

func worksetCheckpointCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "checkpoint",
		Usage:     "record where the work stands: HEAD, the members' versions, plan progress, findings, a note",
		ArgsUsage: "NAME",
		Flags: []cli.Flag{jsonFlag,
			&cli.StringFlag{Name: "note", Usage: "what this point is (\"tests pass, API next\")"},
			&cli.StringFlag{Name: "agent", Usage: "who records it"},
		},
		Action: func(c *cli.Context) error {
			name, err := nameArg(c, "checkpoint")
			if err != nil {
				return err
			}
			we, s, err := e.worksetEnv(c, "canon workset checkpoint")
			if err != nil {
				return err
			}
			defer s.Close()
			cp, err := workset.RecordCheckpoint(c.Context, we, name, workset.CheckpointOptions{Note: c.String("note"), Agent: c.String("agent")})
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, cp)
			}
			fmt.Fprintf(e.stdout, "checkpoint %d of %s at %s: %d of %d plan steps done, %s (%d not promoted), %s\n",
				cp.Seq, name, shortHash(cp.Head), cp.PlanDone, cp.PlanTotal, plural(cp.Findings, "finding"), cp.Unpromoted,
				plural(len(cp.Members), "member"))
			return nil
		},
	}
}

func worksetResumeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "resume",
		Usage:     "what the next session needs: the goal, plan progress and the next step, decisions, what changed since the last checkpoint",
		ArgsUsage: "NAME",
		Flags: []cli.Flag{jsonFlag,
			&cli.IntFlag{Name: "budget", Value: 2000, Usage: "the pack's size in estimated tokens (characters / 4); 0: no bound"},
		},
		Action: func(c *cli.Context) error {
			name, err := nameArg(c, "resume")
			if err != nil {
				return err
			}
			if c.Int("budget") < 0 {
				return fail(2, "--budget must be 0 or more")
			}
			we, s, err := e.worksetEnv(c, "canon workset resume")
			if err != nil {
				return err
			}
			defer s.Close()
			r, err := workset.BuildResume(c.Context, we, name, workset.ResumeOptions{Budget: c.Int("budget")})
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, r)
			}
			_, err = fmt.Fprint(e.stdout, r.Text())
			return err
		},
	}
}

func worksetExportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write a hand-off file: the resume pack, plan.md and notes.md in one Markdown file anyone can read",
		ArgsUsage: "NAME",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to FILE (inside the repository) rather than to standard output"},
			&cli.IntFlag{Name: "budget", Value: 4000, Usage: "the resume pack's size in estimated tokens; 0: no bound"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			name, err := nameArg(c, "export")
			if err != nil {
				return err
			}
			we, s, err := e.worksetEnv(c, "canon workset export")
			if err != nil {
				return err
			}
			defer s.Close()
			data, err := workset.Export(c.Context, we, name, workset.ResumeOptions{Budget: c.Int("budget")})
			if err != nil {
				return worksetError(err)
			}
			out := c.String("output")
			if out == "" {
				if c.Bool("json") {
					return writeJSON(e.stdout, map[string]any{"name": name, "handoff": string(data)})
				}
				_, err := e.stdout.Write(data)
				return err
			}
			p, err := filepath.Abs(out)
			if err != nil {
				return err
			}
			if err := safepath.WriteFile(p, data, 0o644, s.Repo.Root); err != nil {
				return fmt.Errorf("write %s: %w; give a path inside the repository, or leave out --output", out, err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, map[string]any{"name": name, "path": out, "bytes": len(data)})
			}
			fmt.Fprintf(e.stdout, "wrote %s (%s)\n", out, bytesText(int64(len(data))))
			return nil
		},
	}
}

func worksetImportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "make a workset from a hand-off file: documents selected from this clone's index; plan, notes and checkpoints kept",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{jsonFlag,
			&cli.StringFlag{Name: "name", Usage: "the workset's name here (default: the one in the file)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(2, "canon workset import takes one hand-off FILE (written by canon workset export)")
			}
			if n := c.String("name"); n != "" {
				if err := workset.ValidateName(n); err != nil {
					return fail(2, "--name: %v", err)
				}
			}
			data, err := os.ReadFile(c.Args().First())
			if err != nil {
				return fmt.Errorf("read the hand-off file: %w", err)
			}
			we, s, err := e.worksetEnv(c, "canon workset import")
			if err != nil {
				return err
			}
			defer s.Close()
			info, err := workset.Import(c.Context, we, data, workset.ImportOptions{Name: c.String("name")})
			if err != nil {
				return worksetError(err)
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, info)
			}
			fmt.Fprintf(e.stdout, "imported workset %s: %s selected from this clone's index, %s; canon workset resume %s shows where the work stands\n",
				info.Name, plural(info.Docs, "document"), plural(info.Findings, "finding"), info.Name)
			return nil
		},
	}
}
