package conformance

import (
	"os/exec"
	"syscall"
	"time"
)

// runLimited runs cmd in a process group of its own and kills the group
// when it outlives limit. It reports whether it had to.
func runLimited(cmd *exec.Cmd, limit time.Duration) (hung bool, err error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return false, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return false, err
	case <-time.After(limit):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return true, nil
	}
}
