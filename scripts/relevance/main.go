package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The systems compared, in report order.
const (
	sysSearch  = "canon search"
	sysContext = "canon context"
	sysBM25    = "BM25-OR baseline"
)

var systems = []string{sysSearch, sysContext, sysBM25}

// limit is how many documents an answer is judged on (recall@10), and the
// --limit canon search is asked with.
const limit = 10

func main() {
	if err := mainErr(); err != nil {
		fmt.Fprintln(os.Stderr, "relevance: error:", err)
		os.Exit(1)
	}
}

type options struct {
	repos, queries, mirror, canon, out, part string
	vectors                                  string
	only                                     []string
	json                                     bool
}

func mainErr() error {
	var o options
	var only string
	flag.StringVar(&o.repos, "repos", "scripts/relevance/repos.tsv", "the manifest: name, clone URL, pinned commit, queries file")
	flag.StringVar(&o.queries, "queries", "scripts/relevance/queries", "the folder of the judged queries files")
	flag.StringVar(&o.mirror, "mirror", os.Getenv("CANON_BENCH_MIRROR"), "a folder of local mirrors OWNER+NAME/repo to use instead of the network (default $CANON_BENCH_MIRROR)")
	flag.StringVar(&o.canon, "canon", "bin/canon", "the canon binary to measure")
	flag.StringVar(&o.out, "out", "scripts/out/relevance", "where source clones and checkouts go")
	flag.StringVar(&o.part, "part", "all", "tune, holdout or all: which queries to run (tune on tune only)")
	flag.StringVar(&only, "repo", "", "only these repositories of the manifest, comma separated")
	flag.StringVar(&o.vectors, "vectors", "", "import the word vectors of `FILE` into each checkout (canon vectors import) before the queries")
	flag.BoolVar(&o.json, "json", false, "print JSON (every cell and every query's answers) instead of Markdown")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/relevance [--mirror DIR] [--part tune|holdout|all] [--repo NAME,...] [--vectors FILE] [--json]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (see -h)", flag.Arg(0))
	}
	if o.part != "all" && !slices.Contains(parts, o.part) {
		return fmt.Errorf("--part %q: want tune, holdout or all", o.part)
	}
	if only != "" {
		o.only = strings.Split(only, ",")
	}
	bin, err := filepath.Abs(o.canon)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("the canon binary %s is missing: run make build", o.canon)
	}
	o.canon = bin
	if o.vectors != "" {
		if o.vectors, err = filepath.Abs(o.vectors); err != nil {
			return err
		}
	}
	rep, err := measure(o)
	if err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	fmt.Print(markdownReport(rep))
	return nil
}

// measure fetches each repository, checks it out at its commit, builds
// canon's index and asks every system every query.
func measure(o options) (*Report, error) {
	repos, err := loadRepos(o.repos)
	if err != nil {
		return nil, err
	}
	for _, name := range o.only {
		if !slices.ContainsFunc(repos, func(r Repo) bool { return r.Name == name }) {
			return nil, fmt.Errorf("--repo %q is not in %s", name, o.repos)
		}
	}
	canonVersion, _ := run(".", o.canon, "--version")
	rep := &Report{
		Date:    time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Command: strings.TrimSpace("scripts/relevance " + strings.Join(os.Args[1:], " ")),
		Canon:   strings.TrimSpace(string(canonVersion)),
		Part:    o.part,
	}
	for _, r := range repos {
		if len(o.only) > 0 && !slices.Contains(o.only, r.Name) {
			continue
		}
		qs, err := loadQueries(filepath.Join(o.queries, r.Queries))
		if err != nil {
			return nil, err
		}
		if o.part != "all" {
			qs = slices.DeleteFunc(qs, func(q Query) bool { return q.Part != o.part })
		}
		if err := measureRepo(o, r, qs, rep); err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
	}
	rep.Cells = cells(rep.Queries, rep.repoNames())
	return rep, nil
}

func measureRepo(o options, r Repo, qs []Query, rep *Report) error {
	fmt.Fprintf(os.Stderr, "relevance: %s: fetching %s at %.12s\n", r.Name, r.URL, r.Commit)
	src, err := source(r, o.mirror, filepath.Join(o.out, "src"))
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(filepath.Join(o.out, "run", r.Name))
	if err != nil {
		return err
	}
	if err := checkout(src, r.Commit, dir); err != nil {
		return err
	}
	if err := checkJudged(dir, qs); err != nil {
		return err
	}
	c := Canon{bin: o.canon, dir: dir}
	fmt.Fprintf(os.Stderr, "relevance: %s: canon init, then %d queries\n", r.Name, len(qs))
	ndocs, err := c.init()
	if err != nil {
		return err
	}
	if o.vectors != "" {
		if _, err := run(dir, c.bin, "vectors", "import", "--json", o.vectors); err != nil {
			return err
		}
	}
	docs, err := markdown(dir)
	if err != nil {
		return err
	}
	bm := NewBM25(docs)
	rep.Repos = append(rep.Repos, RepoInfo{Name: r.Name, URL: r.URL, Commit: r.Commit, Documents: ndocs, Markdown: len(docs), Queries: len(qs)})
	for _, q := range qs {
		res := QueryResult{Repo: r.Name, Query: q, Answers: map[string]Answer{}, Scores: map[string]Scores{}}
		search, err := c.search(q.Text, limit)
		if err != nil {
			return err
		}
		pack, err := c.context(q.Text)
		if err != nil {
			return err
		}
		res.Answers[sysSearch] = search
		res.Answers[sysContext] = pack
		res.Answers[sysBM25] = Answer{Ranked: bm.Search(q.Text, limit)}
		for sys, a := range res.Answers {
			if len(a.Ranked) > limit {
				a.Ranked = a.Ranked[:limit] // a pack is judged on its first 10 documents
				res.Answers[sys] = a
			}
			res.Scores[sys] = score(a.Ranked, q.Relevant)
		}
		rep.Queries = append(rep.Queries, res)
	}
	return nil
}
