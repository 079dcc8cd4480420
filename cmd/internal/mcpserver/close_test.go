package mcpserver

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/gitsync"
)

// TestMCPCloseWaitsForCallsInFlight: Close lets a call in flight finish
// on the open session before it closes it, lets the listener lock go
// (no call takes it again), and turns later calls away.
func TestMCPCloseWaitsForCallsInFlight(t *testing.T) {
	srv, cs := serve(t, mcpDir(t))
	started, release, closing := make(chan struct{}), make(chan struct{}), make(chan struct{})
	add(srv, &mcp.Tool{Name: "slow", Annotations: readOnly}, func(ctx context.Context, s *gitsync.Session, _ noIn, out *statusOut) (string, error) {
		close(started)
		<-release
		_, err := s.Store.AllMeta() // the session Close would have closed
		return "done", err
	})
	srv.closing = func() { close(closing) }
	answered := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		answered <- res
	}()
	<-started
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	<-closing
	close(release)
	if res := <-answered; res.IsError {
		t.Errorf("a call in flight when Close began: %s", textOf(res))
	}
	<-closed
	if gitsync.ListenerRunning(srv.s.Repo.CanonDir()) {
		t.Error("a closed server holds a listener lock")
	}
	if _, err := srv.call(context.Background(), shared, func(context.Context, *gitsync.Session) error { return nil }); !errors.Is(err, errClosed) {
		t.Errorf("a call after Close: %v", err)
	}
}
