package e2e

import "github.com/seed43a1e1ab/gocl/kernel/wire"

type wireMessage = wire.Message

func newMessage(typ, session string, content any) (*wire.Message, error) {
	return wire.NewMessage(typ, session, nil, content)
}
