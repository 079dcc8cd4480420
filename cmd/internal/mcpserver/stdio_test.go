package mcpserver

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index/indextest/hang"
)

// bufioReader is a buffered reader as stdioTransport makes one.
func bufioReader(s string) *bufio.Reader { return bufio.NewReaderSize(strings.NewReader(s), 64<<10) }

// TestStdioAnswersWhatIsNoMessage: lines that are not JSON-RPC messages are
// answered (-32700 not JSON, -32600 no message or a batch, with its id when
// it has one) and not passed on; messages are passed on whole, in order;
// blank lines vanish; a line past the bound is answered, not kept.
func TestStdioAnswersWhatIsNoMessage(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`hello`,
		``,
		`{"foo":1}`,
		`{"jsonrpc":"2.0","id":7,"foo":1}`,
		`42`,
		`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":"x","result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}   `,
		`{"half":`,
		`[]`,
		`[1]`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	}, "\n")
	var out bytes.Buffer
	r := &messageReader{in: bufioReader(in), out: &out}
	passed, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	wantPassed := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","id":"x","result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}, "\n") + "\n"
	if string(passed) != wantPassed {
		t.Errorf("passed on:\n%s\nwant:\n%s", passed, wantPassed)
	}
	wantAnswers := []string{
		`{"error":{"code":-32700,"message":"Parse error: the line is not JSON"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: a message has \"jsonrpc\": \"2.0\" and a method (or a result or an error)"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: a message has \"jsonrpc\": \"2.0\" and a method (or a result or an error)"},"id":7,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: a message is a JSON object"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: batches are not supported; send one message a line"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32700,"message":"Parse error: the line is not JSON"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: batches are not supported; send one message a line"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: batches are not supported; send one message a line"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: an id is a string or an integer"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: an id is a string or an integer"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: an id is a string or an integer"},"id":null,"jsonrpc":"2.0"}`,
	}
	if got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); strings.Join(got, "\n") != strings.Join(wantAnswers, "\n") {
		t.Errorf("answers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantAnswers, "\n"))
	}

	long := strings.Repeat("x", maxLine+10) + "\n" + `{"jsonrpc":"2.0","id":9,"method":"ping"}` + "\n"
	out.Reset()
	r = &messageReader{in: bufioReader(long), out: &out}
	passed, _ = io.ReadAll(r)
	if string(passed) != `{"jsonrpc":"2.0","id":9,"method":"ping"}`+"\n" || !strings.Contains(out.String(), "-32700") {
		t.Errorf("after a line past the bound: passed %q, answered %q", passed, out.String())
	}
}

// TestStdioEOFWaitsForAnswers: the end of the input is held back until
// every request passed on is answered (printf … | canon mcp lost them),
// a cancelled one excepted; notifications and answers owe nothing.
func TestStdioEOFWaitsForAnswers(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"t\u0077o","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
		`{"jsonrpc":"2.0","id":"s1","result":{}}`,
	}, "\n")
	owed := newOwed()
	var out bytes.Buffer
	w := &lineWriter{w: &out, owed: owed}
	// drain is longer than the test runs: only the answers let EOF pass.
	r := &messageReader{in: bufioReader(in), out: w, owed: owed, drain: 24 * time.Hour}
	ended := make(chan struct{})
	go func() {
		_, _ = io.ReadAll(r)
		close(ended)
	}()
	// The reader notes each request before the SDK could answer it: wait
	// until it has read them all (3 cancelled).
	hang.Until(t, `the reader never owed 1 and "two" alone`, func() bool {
		owed.mu.Lock()
		defer owed.mu.Unlock()
		return len(owed.ids) == 2
	})
	answer := func(s string) {
		t.Helper()
		if _, err := w.Write([]byte(s + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	// Whether EOF passed on too soon: a look that waits a moment for it.
	// It is no barrier: a reader that holds EOF back passes whatever the
	// moment, and one that passes it on at once is seen.
	early := func() bool {
		select {
		case <-ended:
			return true
		case <-time.After(50 * time.Millisecond):
			return false
		}
	}
	if early() {
		t.Fatal("EOF passed on with requests 1 and \"two\" unanswered")
	}
	answer(`{"jsonrpc":"2.0","id":-0,"result":{}}`) // 1 is not answered by 0
	if early() {
		t.Fatal("EOF passed on after an answer to another id")
	}
	answer(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	answer(`{"jsonrpc":"2.0","id":9,"method":"roots/list"}`) // the server's own request owes nothing
	if early() {
		t.Fatal(`EOF passed on with request "two" unanswered`)
	}
	answer(`{"jsonrpc":"2.0","id":"two","result":{}}`)
	hang.Wait(t, ended, "EOF held back after every request not cancelled was answered")
}
