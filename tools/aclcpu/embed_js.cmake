# embed_js.cmake -DIN=file.js -DOUT=file.h -DNAME=symbol: writes OUT, a C
# header holding IN as `static const char *const NAME[]`, one string
# literal per line (no literal over the length every C compiler takes), so
# that the command carries the page's script with no file beside it.
file(READ "${IN}" text)
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "\"" "\\\"" text "${text}")
string(REPLACE "\r" "" text "${text}")
string(REGEX REPLACE "\n$" "" text "${text}")
string(REPLACE "\n" "\\n\",\n    \"" text "${text}")
file(WRITE "${OUT}" "/* Generated from the page script by embed_js.cmake; edit the .js. */\nstatic const char *const ${NAME}[] = {\n    \"${text}\\n\",\n};\n")
