package compiled

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// A build runs go in a process group of its own, so that an interrupted
// build ends with every compile and link it started (killing go alone
// leaves them running), and with Pdeathsig, so that go dies with the engine
// even when the engine is killed. While it runs, the group's number is in
// the build directory's "build" file: if the engine is killed mid-build,
// the next engine to start (RemoveStale) kills what is left of the group
// (go's children, which Pdeathsig does not reach) and removes the
// directory.

// runGroup runs cmd in a process group of its own, recorded in dir.
func runGroup(cmd *exec.Cmd, dir string) error {
	// Pdeathsig fires when the thread that started the child exits, and Go
	// may end an idle thread: keep this one until the build is over.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Start(); err != nil {
		return err
	}
	pgid := cmd.Process.Pid
	mark := filepath.Join(dir, "build")
	os.WriteFile(mark, []byte(strconv.Itoa(pgid)), 0o600)
	err := cmd.Wait()
	syscall.Kill(-pgid, syscall.SIGKILL) // whatever go left behind
	os.Remove(mark)
	return err
}

// The build directories this process made, removed by CloseAll.
var (
	dirsMu sync.Mutex
	dirs   = map[string]bool{}
)

func track(dir string)   { dirsMu.Lock(); dirs[dir] = true; dirsMu.Unlock() }
func untrack(dir string) { dirsMu.Lock(); delete(dirs, dir); dirsMu.Unlock() }

// CloseAll removes the build directories of every Builder of the process;
// the engine calls it before it exits. Loaded plugins stay loaded.
func CloseAll() {
	dirsMu.Lock()
	defer dirsMu.Unlock()
	for d := range dirs {
		os.RemoveAll(d)
		delete(dirs, d)
	}
}

// buildParent returns the directory the build directories go in: gocl in
// the user's cache directory, made private (0700), or, when that cannot be
// had, the temporary directory (a build directory is private either way).
func buildParent() string {
	base, err := os.UserCacheDir()
	if err != nil {
		return os.TempDir()
	}
	p := filepath.Join(base, "gocl")
	if err := os.MkdirAll(p, 0o700); err != nil {
		return os.TempDir()
	}
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() || !isMine(fi) {
		return os.TempDir()
	}
	if fi.Mode().Perm() != 0o700 {
		os.Chmod(p, 0o700) // made 0755 by an older gocl
	}
	return p
}

// RemoveStale removes the build directories of engines that have exited
// (each directory holds the pid of its engine), first killing what is left
// of a build such an engine was running. The engine calls it when it
// starts, and a Builder before its first build.
func RemoveStale() {
	for _, parent := range []string{buildParent(), os.TempDir()} {
		ds, _ := filepath.Glob(filepath.Join(parent, "gocl-cells-*"))
		for _, d := range ds {
			fi, err := os.Lstat(d)
			if err != nil || !fi.IsDir() || ownedByMe(fi) != nil {
				continue
			}
			raw, err := os.ReadFile(filepath.Join(d, "pid"))
			if err != nil {
				continue
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
			if err != nil || pid == os.Getpid() || alive(pid) {
				continue
			}
			if raw, err := os.ReadFile(filepath.Join(d, "build")); err == nil {
				if pgid, err := strconv.Atoi(strings.TrimSpace(string(raw))); err == nil {
					killBuildGroup(pgid)
				}
			}
			os.RemoveAll(d)
		}
	}
}

func alive(pid int) bool {
	_, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid)))
	return !errors.Is(err, os.ErrNotExist)
}

// buildTools are the programs a go build runs.
var buildTools = map[string]bool{"go": true, "compile": true, "link": true, "asm": true, "cgo": true, "vet": true,
	"gcc": true, "cc": true, "cc1": true, "as": true, "ld": true, "collect2": true, "clang": true}

// killBuildGroup kills the processes of group pgid that are this user's
// build tools. The group's number outlives its leader only while members
// remain, but once they are gone it may be reused: only build tools of this
// user's in the group are killed, never the group blindly.
func killBuildGroup(pgid int) {
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		s := string(raw)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) || !buildTools[s[open+1:end]] {
			continue
		}
		fi, err := os.Stat(filepath.Dir(p))
		if err != nil || !isMine(fi) {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(s[:open])); err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// isMine reports whether fi belongs to this user (whatever its mode).
func isMine(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
