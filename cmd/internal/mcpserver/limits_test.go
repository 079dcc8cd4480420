package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/indextest/hang"
)

// TestMCPArgumentsBounded: a list past its bound, a text past its bound or
// a query of too many words is JSON-RPC's invalid params, naming the
// argument; repeats count once (one path 100,000 times, 0.8 MB of JSON,
// ran the server out of memory).
func TestMCPArgumentsBounded(t *testing.T) {
	_, cs := mcpRepo(t)
	var chk struct {
		Summary struct{ Checked int }
	}
	same := make([]string, 100_000)
	for i := range same {
		same[i] = "notes/link.md"
	}
	call(t, cs, "check", map[string]any{"paths": same}, &chk)
	if chk.Summary.Checked != 1 {
		t.Errorf("one path 100,000 times: %+v", chk)
	}
	many := make([]string, maxListItems+1)
	for i := range many {
		many[i] = fmt.Sprintf("notes/n%d.md", i)
	}
	words := strings.Repeat("tokens ", 65_536)
	for _, c := range []struct {
		tool string
		args map[string]any
		says string
	}{
		{"check", map[string]any{"paths": many}, "paths names 201 distinct items; at most 200 are taken; check every document with all: true"},
		{"context", map[string]any{"seeds": many}, "seeds names 201 distinct items"},
		{"neighbors", map[string]any{"ref": "KB-TSK-0001", "edges": many}, "edges names 201"},
		{"search", map[string]any{"query": strings.Repeat("tokens ", 65)}, "query: the query has 65 words; at most 64 are searched"},
		{"search", map[string]any{"query": words}, "query is 458752 bytes; at most 65536 are taken"},
		{"context", map[string]any{"query": strings.Repeat("x", 5000)}, "query: the query is 5000 bytes; a query is at most 4096 bytes"},
		{"show", map[string]any{"ref": strings.Repeat("x", 70_000)}, "ref is 70000 bytes"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || !res.IsError || !strings.Contains(textOf(res), c.says) {
			t.Errorf("%s: %v %+v, want a tool error saying %q", c.tool, err, res, c.says)
		}
	}
	_, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "task-context", Arguments: map[string]string{"seed": strings.Repeat("x", 70_000)}})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "seed is 70000 bytes") {
		t.Errorf("a prompt's argument of 70 KB: %v", err)
	}
}

// TestMCPSlowCallBlocksNoOther: while one read-only call takes its time,
// another client's status, search and show answer (a 200 KB query held
// status for 54 s when every call took one lock); a write waits for no
// reader either.
func TestMCPSlowCallBlocksNoOther(t *testing.T) {
	dir, _ := mcpRepo(t)
	srv, slowClient := serve(t, dir)
	started, release := make(chan struct{}), make(chan struct{})
	add(srv, &mcp.Tool{Name: "slow", Annotations: readOnly}, func(ctx context.Context, s *gitsync.Session, _ noIn, out *statusOut) (string, error) {
		close(started)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return "done", nil
	})
	other := connectTo(t, srv)
	slowDone := make(chan error, 1)
	go func() {
		_, err := slowClient.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
		slowDone <- err
	}()
	<-started
	answered := make(chan string, 1)
	go func() {
		var errs []string
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"status", nil},
			{"search", map[string]any{"query": "tokens"}},
			{"show", map[string]any{"ref": "KB-TSK-0001"}},
			{"check", map[string]any{"all": true}},
			{"workset_new", map[string]any{"name": "w", "seeds": []string{"KB-TSK-0001"}}},
		} {
			res, err := other.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			switch {
			case err != nil:
				errs = append(errs, c.tool+": "+err.Error())
			case res.IsError:
				errs = append(errs, c.tool+": "+textOf(res))
			}
		}
		answered <- strings.Join(errs, "\n")
	}()
	select {
	case errs := <-answered:
		if errs != "" {
			t.Error(errs)
		}
	case <-time.After(hang.Limit):
		t.Fatal("hung: status, search, show, check and workset_new waited for a slow read-only call")
	}
	close(release)
	if err := <-slowDone; err != nil {
		t.Fatal(err)
	}
}

// connectTo connects another in-process client to srv.
func connectTo(t *testing.T, srv *Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "other"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestMCPCallDeadline: a read-only call past the server's timeout is
// stopped and says so.
func TestMCPCallDeadline(t *testing.T) {
	dir, _ := mcpRepo(t)
	srv, cs := serve(t, dir)
	srv.timeout = 100 * time.Millisecond
	add(srv, &mcp.Tool{Name: "endless", Annotations: readOnly}, func(ctx context.Context, s *gitsync.Session, _ noIn, out *statusOut) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	res := call(t, cs, "endless", nil, nil)
	if !res.IsError || !strings.Contains(textOf(res), "the call ran past 100ms and was stopped; ask for less") {
		t.Errorf("a call past the timeout: %v %s", res.IsError, textOf(res))
	}
}

// TestMCPConcurrentCalls: readers, writers and catch-ups of several
// clients at once, across commits (run with -race: no data race).
func TestMCPConcurrentCalls(t *testing.T) {
	dir, _ := mcpRepo(t)
	srv, first := serve(t, dir)
	clients := []*mcp.ClientSession{first, connectTo(t, srv), connectTo(t, srv)}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"search", map[string]any{"query": "tokens"}},
		{"context", map[string]any{"query": "tokens"}},
		{"show", map[string]any{"ref": "KB-TSK-0002"}},
		{"neighbors", map[string]any{"ref": "KB-TSK-0002"}},
		{"ready", nil},
		{"status", nil},
		{"check", map[string]any{"paths": []string{"notes/link.md"}}},
		{"workset_list", nil},
	}
	for round := range 3 {
		p := filepath.Join(dir, "items", fmt.Sprintf("KB-TSK-02%02d.md", round))
		if err := os.WriteFile(p, []byte(fmt.Sprintf("---\nid: KB-TSK-02%02d\ntitle: Tokens %d\n---\n# Tokens\n", round, round)), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-qm", fmt.Sprint("round ", round))
		var wg sync.WaitGroup
		errs := make(chan string, len(clients)*len(calls))
		for _, cs := range clients {
			for _, c := range calls {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
					switch {
					case err != nil:
						errs <- c.tool + ": " + err.Error()
					case res.IsError:
						errs <- c.tool + ": " + textOf(res)
					}
				}()
			}
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("round %d: %s", round, e)
		}
	}
}
