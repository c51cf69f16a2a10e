// Package compiled builds the cells whose first line is //gocl:compile with
// the Go toolchain and loads them into the running kernel as Go plugins.
//
// Every compiled cell becomes one package of a session module that requires
// gocl at the very source the kernel binary was built from, so the packages
// both sides share (cl above all) are one package in the process: a
// *cl.Buffer made by an interpreted cell is the same type in compiled code.
// A generated file in each cell package registers its functions, variables
// (the variables themselves), constants and types with package rt; the
// engine hands that table to the interpreter. A later compiled cell imports
// the packages of the earlier ones whose names it uses (unexported ones
// through generated accessors). Builds are cached by their inputs
// (cache.go).
//
// Plugins cannot be unloaded: every build stays in memory until the kernel
// restarts (see the README for the cost).
package compiled

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"plugin"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/compiled/rt"
)

// SessionModule is the module path of the generated cell packages.
const SessionModule = "goclsession"

// seq numbers cell packages in the process: a plugin's path must be new in
// the process, and an engine restart keeps the process.
var seq atomic.Int64

// Builder builds and loads the compiled cells of one session.
type Builder struct {
	mu     sync.Mutex
	tc     *toolchain
	tcErr  error
	dir    string              // session module directory
	owner  map[string]*cellPkg // name -> the cell package that declares it now
	pkgs   []*cellPkg
	pinned map[string]bool // modules already reported in this session
	env    []string
}

// cellPkg is one built cell.
type cellPkg struct {
	cell  string // "cell5"
	name  string // Go package name, "c12"
	path  string // import path, "goclsession/c12"
	decls []Decl
	key   string // its plugin cache key
	// files are the sources of the package (paths in the session module
	// directory); written says they are there. A plugin loaded from the
	// cache wrote none, and a later cell that imports the package needs
	// them (writeSources).
	files   map[string]string
	written bool
}

// Loaded is what a compiled cell added to the session.
type Loaded struct {
	// Path is the cell's package import path; Symbols its interpreter table.
	Path    string
	Symbols map[string]reflect.Value
	Decls   []Decl
	// Replaced are the names this cell took over from earlier compiled
	// cells, each with that cell ("Foo (cell3)").
	Replaced []string
	// Modules are third-party modules the cell imports that this session
	// had not reported yet, as "path version".
	Modules []string
	// PinFile is where the modules are pinned, when Modules is not empty.
	PinFile string
	// GoBuild is the time of go build, Load of loading the plugin, Took of
	// the whole Build.
	GoBuild, Load, Took time.Duration
	// Cached: the plugin came from the plugin cache, built earlier by this
	// same binary from the same cell (see cache.go).
	Cached bool
}

// NewBuilder returns a builder whose builds run with env (nil: the
// process's environment). Nothing is checked until the first build, so a
// kernel without a Go toolchain still serves interpreted cells.
func NewBuilder(env []string) *Builder {
	return &Builder{owner: map[string]*cellPkg{}, pinned: map[string]bool{}, env: env}
}

// Close removes the session's build directory. Loaded plugins stay loaded.
func (b *Builder) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dir == "" {
		return nil
	}
	untrack(b.dir)
	return os.RemoveAll(b.dir)
}

// Owner returns the compiled cell that declares name now, and its Decl.
func (b *Builder) Owner(name string) (cell string, d Decl, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.owner[name]
	if p == nil {
		return "", Decl{}, false
	}
	for _, d := range p.decls {
		if d.Name == name {
			return p.cell, d, true
		}
	}
	return "", Decl{}, false
}

func (b *Builder) setup() error {
	if b.tc == nil && b.tcErr == nil {
		b.tc, b.tcErr = findToolchain()
	}
	if b.tcErr != nil {
		return b.tcErr
	}
	if b.dir != "" {
		return nil
	}
	parent := buildParent()
	RemoveStale()
	dir, err := os.MkdirTemp(parent, "gocl-cells-") // mode 0700
	if err != nil {
		return fmt.Errorf("compiled cells: cannot make a build directory: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		return err
	}
	b.dir = dir
	track(dir)
	return b.writeModule()
}

// Build compiles the cell called name (its kernel name, "cell5") and loads
// it. ctx cancels the build.
func (b *Builder) Build(ctx context.Context, name, src string) (*Loaded, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	start := time.Now()
	cs, err := parseCell(name, src)
	if err != nil {
		return nil, err
	}
	n := seq.Add(1)
	pkg := &cellPkg{cell: name, name: fmt.Sprintf("c%d", n), path: fmt.Sprintf("%s/c%d", SessionModule, n), decls: cs.decls}

	prefix, body, ins, deps := b.imports(cs)
	pdir := pkg.name
	mdir := "p" + pkg.name[1:]
	head := "package " + pkg.name + "; " + prefix
	pkg.files = map[string]string{
		filepath.Join(pdir, name+".go"):        head + body + "\n" + accessFile(cs.access),
		filepath.Join(pdir, "gocl_exports.go"): exportsFile(pkg.name, pkg.path, cs.decls),
	}
	files := map[string]string{
		filepath.Join(mdir, "main.go"): "// Code generated by gocl for a compiled cell; DO NOT EDIT.\n\npackage main\n\nimport _ " + strconv.Quote(pkg.path) + "\n",
	}
	for f, text := range pkg.files {
		files[f] = text
	}
	var depKeys []string
	for _, d := range deps {
		depKeys = append(depKeys, d.key)
	}
	pkg.key = cacheKey(name, files, depKeys)
	var goBuild time.Duration
	var mods []string
	var pinFile string
	so, loaded := cached(pkg.key)
	if so == "" {
		// Not built before: build it.
		if err := b.setup(); err != nil {
			if errors.Is(err, ErrNoToolchain) {
				return nil, fmt.Errorf("%w (and this cell was not built before by this gocl binary: no plugin for it in %s)", err, cacheDir())
			}
			return nil, err
		}
		// The earlier cells' packages this one imports must be there, and
		// the same to the byte as in their plugins (see goBuild).
		if err := b.writeSources(files); err != nil {
			return nil, err
		}
		pkg.written = true
		so = filepath.Join(b.dir, pkg.name+".so")
		t0 := time.Now()
		if err := b.goBuild(ctx, so, "./"+mdir); err != nil {
			var ce *CompileError
			if errors.As(err, &ce) {
				for i, d := range ce.Diags {
					if d.Line == 1 {
						d.Col = max(d.Col-len(head), 1)
					} else if d.Cell == name {
						d.Col = origColumn(src, ins, d.Line, d.Col)
					}
					d.Msg = sessionName.ReplaceAllString(d.Msg, "")
					if strings.Contains(d.Msg, "unexported field") || strings.Contains(d.Msg, "unexported method") ||
						(strings.Contains(d.Msg, "has no field or method") && len(ins) > 0) {
						d.Msg += " (each compiled cell is a Go package of its own: fields and methods of an earlier compiled cell's " +
							"types that later compiled cells use must be capitalized)"
					}
					ce.Diags[i] = d
				}
			}
			return nil, err
		}
		goBuild = time.Since(t0)
		os.Chmod(so, 0o600)
		var err error
		if mods, pinFile, err = b.modulesOf(cs); err != nil {
			return nil, err
		}
		so = store(pkg.key, so)
	} else {
		mods, pinFile = b.pinnedModules(cs)
	}
	t1 := time.Now()
	syms, err := open(so, pkg.path)
	load := time.Since(t1)
	if loaded != nil {
		loaded()
	}
	if b.dir != "" && strings.HasPrefix(so, b.dir+string(filepath.Separator)) {
		os.Remove(so) // mapped by now; not cached, so no longer needed
	}
	if err != nil {
		return nil, err
	}
	l := &Loaded{Path: pkg.path, Symbols: syms, Decls: cs.decls, Modules: mods, PinFile: pinFile, GoBuild: goBuild, Load: load,
		Cached: goBuild == 0}
	for _, d := range cs.decls {
		if old := b.owner[d.Name]; old != nil {
			l.Replaced = append(l.Replaced, fmt.Sprintf("%s (%s)", d.Name, old.cell))
		}
		b.owner[d.Name] = pkg
	}
	b.pkgs = append(b.pkgs, pkg)
	l.Took = time.Since(start)
	return l, nil
}

// writeSources writes files, and the packages of the session's earlier
// cells that are not in the build directory yet: those loaded from the
// plugin cache, which a later cell may import.
func (b *Builder) writeSources(files map[string]string) error {
	write := func(files map[string]string) error {
		for f, text := range files {
			f = filepath.Join(b.dir, f)
			if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
				return err
			}
			if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
				return err
			}
		}
		return nil
	}
	for _, p := range b.pkgs {
		if !p.written {
			if err := write(p.files); err != nil {
				return err
			}
			p.written = true
		}
	}
	return write(files)
}

// imports returns the import declarations to put before the cell on its
// first line (automatic imports and the packages of earlier cells), and the
// cell with each use of an earlier cell's name qualified by its package
// (SumOf becomes gocl_c3.SumOf): qualified, a name of an earlier cell never
// clashes with the cell's own, and a variable stays that very variable.
func (b *Builder) imports(cs *cellSource) (prefix, src string, ins []insert, deps []*cellPkg) {
	used := map[*cellPkg]bool{}
	var imps []string
	auto := map[string]bool{}
	var out strings.Builder
	last := 0
	for _, u := range cs.uses {
		if p := b.owner[u.name]; p != nil {
			if u.off < last || u.off+len(u.name) > len(cs.src) || cs.src[u.off:u.off+len(u.name)] != u.name {
				continue
			}
			// Exported: gocl_c3.Name. Unexported, through its accessor:
			// gocl_c3.Gocl_name, or (*gocl_c3.Gocl_name) for a variable.
			q, end := "gocl_"+p.name+".", ""
			if !exported(u.name) {
				q += accessPrefix
				if declOf(p, u.name).Kind == "var" {
					q, end = "(*"+q, ")"
				}
			}
			out.WriteString(cs.src[last:u.off])
			out.WriteString(q)
			out.WriteString(u.name)
			out.WriteString(end)
			last = u.off + len(u.name)
			ins = append(ins, insert{off: u.off, n: len(q)})
			if end != "" {
				ins = append(ins, insert{off: last, n: len(end)})
			}
			if !used[p] {
				used[p] = true
				deps = append(deps, p)
				imps = append(imps, fmt.Sprintf("gocl_%s %q", p.name, p.path))
			}
		} else if ip, ok := AutoImports[u.name]; ok && !cs.named[u.name] && !auto[u.name] {
			auto[u.name] = true
			imps = append(imps, fmt.Sprintf("%s %q", u.name, ip))
		}
	}
	out.WriteString(cs.src[last:])
	sort.Strings(imps)
	if len(imps) > 0 {
		prefix = "import (" + strings.Join(imps, "; ") + "); "
	}
	return prefix, out.String(), ins, deps
}

// declOf returns the Decl of name in p.
func declOf(p *cellPkg, name string) Decl {
	for _, d := range p.decls {
		if d.Name == name {
			return d
		}
	}
	return Decl{Name: name}
}

// accessFile places the accessors after the cell, under a file name of
// their own (a //line directive), so that no message or frame points into
// them as if they were cell lines.
func accessFile(access string) string {
	if access == "" {
		return ""
	}
	return "\n//line gocl_access.go:1\n" + access
}

// insert is text added to the cell at a byte offset, which moves the
// compiler's columns on that line.
type insert struct{ off, n int }

// origColumn maps column col of line (both 1-based) of the rewritten cell
// back to the cell as written.
func origColumn(src string, ins []insert, line, col int) int {
	start := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[start:], '\n')
		if i < 0 {
			return col
		}
		start += i + 1
	}
	shift := 0
	for _, in := range ins {
		if in.off < start {
			continue
		}
		c := in.off - start + 1 // the insert's column in the original
		if strings.Contains(src[start:in.off], "\n") || c+shift >= col {
			break
		}
		shift += in.n
		if col-shift < c {
			return c
		}
	}
	return col - shift
}

func (b *Builder) environ() []string {
	if b.env == nil {
		return os.Environ()
	}
	return b.env
}

// sessionName matches the package qualifiers and accessor prefixes that
// the compiler's messages show for earlier cells' names.
var sessionName = regexp.MustCompile(`\b(?:gocl_)?c\d+\.(?:` + accessPrefix + `)?|\b` + accessPrefix)

// diagRE matches a compiler message at a position of a cell file.
var diagRE = regexp.MustCompile(`^(?:\S*/)?(cell\d+)\.go:(\d+):(\d+): (.*)$`)

// goBuild builds the plugin of package dir into out. Messages at cell
// positions become Diags, at the positions of the file built.
func (b *Builder) goBuild(ctx context.Context, out, dir string) error {
	// No DWARF and no symbol table: linking them is half of a warm build,
	// and panics get their cell lines from the pcln table, which stays.
	args := append([]string{"build", "-buildmode=plugin", "-mod=mod", "-ldflags=-s -w", "-o", out}, b.tc.flags...)
	args = append(args, cellGcflags(b.tc.flags, b.dir), dir)
	cmd := exec.CommandContext(ctx, b.tc.goBin, args...)
	cmd.Dir = b.dir
	cmd.Env = append(append(b.environ(), b.tc.env...), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
	var outb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outb, &outb
	err := runGroup(cmd, b.dir)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err == nil {
		return nil
	}
	ce := &CompileError{Output: outb.String()}
	for _, line := range strings.Split(outb.String(), "\n") {
		m := diagRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		ce.Diags = append(ce.Diags, Diag{Cell: m[1], Line: l, Col: c, Msg: m[4]})
	}
	if len(ce.Diags) == 0 {
		return fmt.Errorf("go build of the compiled cell failed:\n%s", strings.TrimSpace(outb.String()))
	}
	return ce
}

// cellGcflags returns the -gcflags of the cells' packages: the binary's
// flags that apply to them, and a -trimpath that records their files as
// goclsession/c3/cell5.go, not under the build directory.
//
// A later cell's plugin holds its own copy of each earlier cell's package it
// imports, and Go's plugin loader refuses it unless that copy's export data
// (positions and their file names included) is the loaded one's to the byte.
// The earlier cell's plugin may come from the cache, built by another engine
// in another build directory: with the directory trimmed away, the sources
// (determined by the cache key) determine the package.
func cellGcflags(binFlags []string, dir string) string {
	var flags string
	for _, f := range binFlags {
		v, ok := strings.CutPrefix(f, "-gcflags=")
		if !ok {
			continue
		}
		// A pattern the cells' packages match; none, as in "-N -l", means
		// the packages named on the command line: the cell's main package.
		if pat, fl, ok := strings.Cut(v, "="); ok && !strings.HasPrefix(v, "-") && (pat == "all" || pat == "...") {
			flags = fl + " "
		}
	}
	trim := "-trimpath=" + dir + "=>" + SessionModule
	if strings.ContainsAny(trim, " \t'") {
		trim = `"` + trim + `"` // cmd/go splits the flags at spaces, keeping quoted fields
	}
	return "-gcflags=" + SessionModule + "/c...=" + flags + trim
}

// open loads the plugin so and returns the symbols its cell package
// registered. A panic in the cell's package initialization is an error.
func open(so, path string) (syms map[string]reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = rt.NewPanic(r)
		}
	}()
	if _, err := plugin.Open(so); err != nil {
		msg := err.Error()
		if strings.Contains(msg, "different version of package "+SessionModule+"/") {
			// Not the binary: an earlier cell's package, built twice.
			return nil, fmt.Errorf("the compiled cell's copy of an earlier compiled cell's package differs from the loaded one, so Go cannot load it (%s); "+
				"this is a gocl bug, please report it; to go on, restart the kernel with GOCL_PLUGIN_CACHE=off and run the cells again", msg)
		}
		if strings.Contains(msg, "different version of package") {
			return nil, fmt.Errorf("the compiled cell does not match this gocl binary (%s): gocl's source changed since the binary was built, "+
				"or a module the cell imports needs another version of a module gocl uses; rebuild gocl (go build -o bin/gocl .) or pin an older module in gocl.mod", msg)
		}
		return nil, fmt.Errorf("loading the compiled cell: %w", err)
	}
	syms = rt.Symbols(path)
	if syms == nil {
		return nil, errors.New("the compiled cell loaded but registered no symbols (its generated exports file did not run)")
	}
	return syms, nil
}
