// Package history stores the cells a user ran, for Jupyter's
// history_request.
//
// The store is one JSON-lines file per user (DefaultPath), shared by every
// kernel the user starts. Each kernel process opens a new session, numbered
// one past the highest session in the file; cells are numbered within their
// session by their execution count. The file is append-only while a kernel
// runs, so history survives restarts and crashes; a line that cannot be
// parsed is skipped. When the file holds more than the store's limit of
// cells, or more than MaxBytes of text, it is rewritten with the newest
// ones only. Each cell keeps at most MaxInput bytes of its input and
// MaxOutput of its result, with a note saying what was cut (truncate.go):
// one cell that printed 200 MB must not make every later kernel read it.
package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
)

// DefaultLimit is the number of cells a store keeps unless told otherwise.
const DefaultLimit = 10000

// Entry is one stored cell.
type Entry struct {
	Session int    `json:"session"`
	Line    int    `json:"line"`
	Input   string `json:"input"`
	Output  string `json:"output,omitempty"`
}

// Tuple returns e as history_reply lists it: [session, line, input], or
// [session, line, [input, output]] when output is requested (a cell without
// output gives null, as IPython does).
func (e Entry) Tuple(output bool) []any {
	if !output {
		return []any{e.Session, e.Line, e.Input}
	}
	var out any
	if e.Output != "" {
		out = e.Output
	}
	return []any{e.Session, e.Line, []any{e.Input, out}}
}

// record is one line of the file: a cell, or (Line 0) the start of a session.
type record struct {
	Entry
	Start string `json:"start,omitempty"`
}

// Store is an open history file. Its methods are safe for concurrent use.
type Store struct {
	mu       sync.Mutex
	path     string
	limit    int
	session  int
	entries  []Entry // all sessions, oldest first
	bytes    int     // the text in entries
	maxBytes int     // MaxBytes; tests lower it
	skipped  int
	cut      bool // load truncated an entry or found over MaxBytes: rewrite
}

// DefaultPath returns the per-user history file:
// $JUPYTER_DATA_DIR/gocl/history.jsonl, or under $XDG_DATA_HOME/jupyter, or
// ~/.local/share/jupyter.
func DefaultPath() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Join(d, "gocl", "history.jsonl"), nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "jupyter", "gocl", "history.jsonl"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("history: no home directory for the history file (set JUPYTER_DATA_DIR): %w", err)
	}
	return filepath.Join(home, ".local", "share", "jupyter", "gocl", "history.jsonl"), nil
}

// Open opens (creating it and its directories, mode 0700, if needed) the
// history file at path and starts a new session in it, keeping at most
// DefaultLimit cells.
func Open(path string) (*Store, error) { return OpenLimit(path, DefaultLimit) }

// OpenLimit is Open with a limit on the number of cells kept; limit <= 0
// means DefaultLimit.
func OpenLimit(path string, limit int) (*Store, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("history: create the directory of %s: %w", path, err)
	}
	s := &Store{path: path, limit: limit, maxBytes: MaxBytes}
	err := withLock(path, func() error {
		maxSession, err := s.load()
		if err != nil {
			return err
		}
		s.session = maxSession + 1
		if len(s.entries) > s.limit || s.cut {
			return s.rewrite()
		}
		return s.appendRecord(record{Entry: Entry{Session: s.session}, Start: nowStamp()})
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// load reads the file into s.entries and returns the highest session number
// seen. Unparsable lines are counted in s.skipped and otherwise ignored;
// entries over the caps are truncated and s.cut set.
func (s *Store) load() (maxSession int, err error) {
	f, err := os.Open(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("history: read %s: %w", s.path, err)
	}
	defer f.Close()
	s.bytes, s.cut = 0, false
	big := false
	r := bufio.NewReaderSize(f, 64*1024)
	for {
		line, err := readLine(r)
		if len(line) > 1<<20 {
			big = true
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			var rec record
			if err := json.Unmarshal(line, &rec); err != nil || rec.Session <= 0 || rec.Line < 0 {
				s.skipped++
			} else {
				maxSession = max(maxSession, rec.Session)
				if rec.Line > 0 {
					e, cut := capped(rec.Entry)
					s.cut = s.cut || cut
					s.entries = append(s.entries, e)
					s.bytes += e.size()
				}
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("history: read %s: %w", s.path, err)
		}
	}
	if s.bytes > s.maxBytes {
		s.cut = true
	}
	if big {
		// A file from before the caps: give the memory its huge lines
		// took back now, not minutes from now.
		debug.FreeOSMemory()
	}
	return maxSession, nil
}

// readLine returns the next line of r, however long, without its newline.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
	buf := append([]byte(nil), line...)
	for errors.Is(err, bufio.ErrBufferFull) {
		line, err = r.ReadSlice('\n')
		buf = append(buf, line...)
	}
	return bytes.TrimSuffix(buf, []byte("\n")), err
}

// Skipped returns how many lines of the file could not be read when it was
// opened (a crash mid-write, a hand edit).
func (s *Store) Skipped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.skipped
}

// Path returns the file the store writes to.
func (s *Store) Path() string { return s.path }

// Session returns the number of this kernel's session.
func (s *Store) Session() int { return s.session }

// NewSession starts a new session, numbered one past the highest in the
// file, as a kernel restart does: the cells run after it are numbered from 1
// again without clashing with those of the old session. It also picks up
// the cells other kernels added since.
func (s *Store) NewSession() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return withLock(s.path, func() error {
		old, skipped := s.entries, s.skipped
		s.entries = nil
		maxSession, err := s.load()
		s.skipped = skipped
		if err != nil {
			s.entries = old
			return err
		}
		s.session = max(maxSession, s.session) + 1
		return s.appendRecord(record{Entry: Entry{Session: s.session}, Start: nowStamp()})
	})
}

// Add records cell line (its execution count) of the current session, with
// its input and, optionally, the text of its result. The cell is kept in
// memory even when writing the file fails; the error says why it failed.
func (s *Store) Add(line int, input, output string) error {
	if line <= 0 {
		return fmt.Errorf("history: cell number %d must be positive", line)
	}
	e, _ := capped(Entry{Session: s.session, Line: line, Input: input, Output: output})
	s.mu.Lock()
	defer s.mu.Unlock()
	added := false
	err := withLock(s.path, func() error {
		if len(s.entries)+1 <= s.limit+s.limit/10 && s.bytes+e.size() <= s.maxBytes+s.maxBytes/10 {
			s.entries = append(s.entries, e)
			s.bytes += e.size()
			added = true
			return s.appendRecord(record{Entry: e})
		}
		// Trim: reread the file first so that cells other kernels added
		// since Open survive the rewrite.
		old, skipped := s.entries, s.skipped
		s.entries = nil
		if _, err := s.load(); err != nil {
			s.entries = old
			return err
		}
		s.skipped = skipped
		s.entries = append(s.entries, e)
		added = true
		return s.rewrite()
	})
	if !added {
		s.entries = append(s.entries, e)
		s.bytes += e.size()
	}
	return err
}

// appendRecord appends r to the file; the file lock is held.
func (s *Store) appendRecord(r record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("history: encode: %w", err)
	}
	f, err := os.OpenFile(s.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("history: open %s: %w", s.path, err)
	}
	_, werr := f.Write(append(b, '\n'))
	cerr := f.Close()
	if werr != nil || cerr != nil {
		return fmt.Errorf("history: write %s: %w", s.path, errors.Join(werr, cerr))
	}
	return nil
}

// rewrite trims s.entries to the newest s.limit cells that hold at most
// MaxBytes of text (the newest one always stays) and replaces the file
// with them, after a start record of the current session so that session
// numbers keep growing; the file lock is held.
func (s *Store) rewrite() error {
	n := max(len(s.entries)-s.limit, 0)
	size := 0
	for _, e := range s.entries[n:] {
		size += e.size()
	}
	for size > s.maxBytes && n < len(s.entries)-1 {
		size -= s.entries[n].size()
		n++
	}
	if n > 0 {
		s.entries = append([]Entry(nil), s.entries[n:]...)
	}
	s.bytes, s.cut = size, false
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(record{Entry: Entry{Session: s.session}, Start: nowStamp()}); err != nil {
		return fmt.Errorf("history: encode: %w", err)
	}
	for _, e := range s.entries {
		if err := enc.Encode(record{Entry: e}); err != nil {
			return fmt.Errorf("history: encode: %w", err)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".history-*.tmp")
	if err != nil {
		return fmt.Errorf("history: trim %s: %w", s.path, err)
	}
	_, werr := tmp.Write(buf.Bytes())
	cerr := tmp.Close()
	if werr == nil && cerr == nil {
		if err := os.Chmod(tmp.Name(), 0o600); err == nil {
			if err := os.Rename(tmp.Name(), s.path); err == nil {
				return nil
			} else {
				werr = err
			}
		} else {
			werr = err
		}
	}
	os.Remove(tmp.Name())
	return fmt.Errorf("history: trim %s: %w", s.path, errors.Join(werr, cerr))
}
