// Package attack holds the end-to-end attack suite of gocl's connection
// layer: each test starts the real binary, attacks it the way a local user
// without the key could (raw ZMTP 3.0 from Go, and a pyzmq DEALER for the
// stolen identity), and checks that a legitimate client keeps getting
// kernel_info answered within a second during and after the attack, that the
// kernel's peak RSS stays under a stated bound and that its CPU use returns
// to idle.
//
// With GOCL_ATTACK_REPORT=file, the figures of each attack are written there
// as a markdown table (bench/attack/run.sh puts them in bench/RESULTS.md).
package attack
