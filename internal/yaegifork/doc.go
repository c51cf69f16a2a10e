// Package yaegifork holds the test that keeps gocl's patched copy of yaegi
// (third_party/yaegi) honest: every line that differs from the module the Go
// proxy serves carries a "// gocl patch:" comment, and every changed file is
// listed in third_party/yaegi/PATCHES.md. Upgrading yaegi is then: copy the
// new module over third_party/yaegi, apply the marked lines again, and run
// this test.
package yaegifork
