-- \aset is named \gset in the message
\aset p_
