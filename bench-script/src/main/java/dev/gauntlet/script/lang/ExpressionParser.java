package dev.gauntlet.script.lang;

import dev.gauntlet.script.lang.ExpressionLexer.Kind;
import dev.gauntlet.script.lang.ExpressionLexer.Token;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses pgbench 15's expressions ({@code exprparse.y}) into {@link Expression}s built as pgbench builds them, and
 * refuses what pgbench refuses with its message and caret column.
 *
 * <p>Precedence, lowest first, as pgbench takes it from PostgreSQL's grammar: {@code OR}; {@code AND}; prefix
 * {@code NOT}; postfix {@code IS [NOT] NULL|TRUE|FALSE}, {@code ISNULL}, {@code NOTNULL}; the comparisons
 * {@code = <> != < > <= >=} (not associative: {@code 1 < 2 < 3} is a syntax error); {@code | # & << >>} (and
 * prefix {@code ~}, which binds like them: {@code ~1 + 2} is {@code ~(1 + 2)}); {@code + -}; {@code * / %}; prefix
 * {@code +} and {@code -}. The binary operators associate to the left. {@code -9223372036854775808} is the smallest
 * integer, though {@code 9223372036854775808} alone is a syntax error. Function names are case-insensitive; a
 * function's arguments may start with an empty one ({@code abs(, -5)} is {@code abs(-5)}), as pgbench's grammar
 * allows.
 *
 * <p>Errors are found where pgbench finds them: a function's unknown name as soon as it is read, its number of
 * arguments at its closing parenthesis, a syntax error at the first token that cannot continue the expression, and
 * an error of the scanner (which pgbench reports over any other, the last of them) where the scanner found it.
 * Nesting is limited as pgbench's parser limits it: {@code memory exhausted} once its stack would hold 10,000
 * states (about 10,000 parentheses or prefix operators, 5,000 nested calls), at the token that would overflow it.
 * An expression of more than 1,000 tokens is parsed on a thread of its own with a 64 MB stack.
 */
public final class ExpressionParser {

    /** Precedence of prefix {@code +} and {@code -}. */
    private static final int UNARY = 9;
    private static final int TILDE = 6;
    private static final int NOT = 3;

    /** How an operator groups with another of its precedence. */
    private enum Associativity { LEFT, RIGHT, NONE }

    /** Beyond this many tokens an expression is parsed on a thread of its own, with a deep stack. */
    private static final int DEEP_TOKENS = 1000;
    /** That thread's stack: enough for the deepest nesting pgbench's stack allows. */
    private static final long DEEP_STACK_BYTES = 64L << 20;

    /** The most states bison's stack holds (YYMAXDEPTH): a parse that would need more is "memory exhausted". */
    private static final int MAX_DEPTH = 10000;

    private final ExpressionLexer lexer;
    private final List<Token> tokens;
    private int next;
    /** How many states pgbench's parser would have on its stack, its initial state included. */
    private int depth = 1;

    private ExpressionParser(ExpressionLexer lexer, List<Token> tokens) {
        this.lexer = lexer;
        this.tokens = tokens;
    }

    /**
     * Parses an expression that ends at a newline, or at the end of the text, as a line of a script does.
     *
     * @param text the expression, as it follows {@code \set name } (up to its first unescaped newline)
     * @return the expression
     * @throws ScriptSyntaxException pgbench's error, its column counted from the start of {@code text}
     */
    public static Expression parse(String text) throws ScriptSyntaxException {
        return parse(text, false);
    }

    /**
     * Parses an expression.
     *
     * @param text            the expression, up to its first unescaped newline
     * @param endsAtEndOfFile true when the text is the end of a file that has no final newline: pgbench then puts
     *                        the caret of an error at the end of the expression on its last byte, not after it
     * @return the expression
     * @throws ScriptSyntaxException pgbench's error, its column counted from the start of {@code text}
     */
    public static Expression parse(String text, boolean endsAtEndOfFile) throws ScriptSyntaxException {
        ExpressionLexer lexer = ExpressionLexer.scanner(text, endsAtEndOfFile);
        ExpressionParser parser = new ExpressionParser(lexer, lexer.scanAll());
        if (parser.tokens.size() <= DEEP_TOKENS) {
            return parser.parseAll();
        }
        // nested up to pgbench's limit, the recursion needs more stack than a thread usually has
        Expression[] parsed = new Expression[1];
        Throwable[] failed = new Throwable[1];
        Thread thread = new Thread(null, () -> {
            try {
                parsed[0] = parser.parseAll();
            } catch (ScriptSyntaxException | RuntimeException | Error e) {
                failed[0] = e;
            }
        }, "pgbench-expression-parser", DEEP_STACK_BYTES);
        thread.start();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while parsing an expression", e);
        }
        if (failed[0] instanceof ScriptSyntaxException) {
            throw (ScriptSyntaxException) failed[0];
        }
        if (failed[0] instanceof RuntimeException) {
            throw (RuntimeException) failed[0];
        }
        if (failed[0] != null) {
            throw (Error) failed[0];
        }
        return parsed[0];
    }

    private Expression parseAll() throws ScriptSyntaxException {
        Expression expression = expression(0, Associativity.NONE);
        Token end = take();
        if (end.kind() != Kind.EOL) {
            throw syntaxError(end);
        }
        return expression;
    }

    private Token peek() {
        return tokens.get(next);
    }

    private Token take() {
        return tokens.get(next++);
    }

    /** Takes the next token onto the parser's stack, as bison shifts it: one state more. */
    private Token shift() throws ScriptSyntaxException {
        Token token = take();
        push(token);
        return token;
    }

    /** One state more on bison's stack (a token shifted, or an empty argument list), with the lookahead given. */
    private void push(Token lookahead) throws ScriptSyntaxException {
        depth++;
        if (depth >= MAX_DEPTH) {
            throw new ScriptSyntaxException("memory exhausted", null, lexer.caret(lookahead));
        }
    }

    private Token expect(Kind kind) throws ScriptSyntaxException {
        if (peek().kind() != kind) {
            throw syntaxError(take());
        }
        return shift();
    }

    private ScriptSyntaxException syntaxError(Token token) {
        return new ScriptSyntaxException("syntax error", null, lexer.caret(token));
    }

    /**
     * An expression whose operators bind tighter than the context's, as bison's precedence resolves the grammar:
     * an operator of the context's precedence ends it (left), extends it (right) or is an error (non-associative).
     */
    private Expression expression(int contextPrecedence, Associativity contextAssociativity)
            throws ScriptSyntaxException {
        int base = depth;
        Expression left = prefix();
        while (true) {
            Token token = peek();
            int precedence = infixPrecedence(token.kind());
            if (precedence == 0 || precedence < contextPrecedence) {
                return left;
            }
            if (precedence == contextPrecedence) {
                if (contextAssociativity == Associativity.LEFT) {
                    return left;
                }
                if (contextAssociativity == Associativity.NONE) {
                    throw syntaxError(token);
                }
            }
            shift();
            if (precedence == 4) {
                left = postfix(token, left);
            } else {
                Expression right = expression(precedence, precedence == 5 ? Associativity.NONE : Associativity.LEFT);
                left = binary(token.kind(), left, right);
            }
            depth = base + 1;
        }
    }

    private static int infixPrecedence(Kind kind) {
        switch (kind) {
            case OR:
                return 1;
            case AND:
                return 2;
            case IS:
            case ISNULL:
            case NOTNULL:
                return 4;
            case EQUAL:
            case NOT_EQUAL:
            case LESS:
            case GREATER:
            case LESS_EQUAL:
            case GREATER_EQUAL:
                return 5;
            case BAR:
            case HASH:
            case AMPERSAND:
            case SHIFT_LEFT:
            case SHIFT_RIGHT:
                return 6;
            case PLUS:
            case MINUS:
                return 7;
            case STAR:
            case SLASH:
            case PERCENT:
                return 8;
            default:
                return 0;
        }
    }

    /** An operand: a constant, a variable, a call, a CASE, a parenthesis, or a prefix operator and its operand. */
    private Expression prefix() throws ScriptSyntaxException {
        int base = depth;
        Expression operand = operand();
        depth = base + 1;
        return operand;
    }

    private Expression operand() throws ScriptSyntaxException {
        Token token = take();
        switch (token.kind()) {
            case LEFT_PAREN:
            case PLUS:
            case MINUS:
            case TILDE:
            case NOT:
            case NULL:
            case BOOLEAN:
            case INTEGER:
            case DOUBLE:
            case VARIABLE:
            case FUNCTION:
            case CASE:
                push(token);
                break;
            default:
                throw syntaxError(token);
        }
        switch (token.kind()) {
            case LEFT_PAREN:
                Expression inner = expression(0, Associativity.NONE);
                expect(Kind.RIGHT_PAREN);
                return inner;
            case PLUS:
                return expression(UNARY, Associativity.RIGHT);
            case MINUS:
                if (peek().kind() == Kind.MAXINT_PLUS_ONE) {
                    shift();
                    return new Constant(Value.ofInt(Long.MIN_VALUE));
                }
                return call(BuiltinFunction.SUB, new Constant(Value.ofInt(0)), expression(UNARY, Associativity.RIGHT));
            case TILDE:
                return call(BuiltinFunction.BITXOR, new Constant(Value.ofInt(-1)),
                        expression(TILDE, Associativity.LEFT));
            case NOT:
                return call(BuiltinFunction.NOT, expression(NOT, Associativity.RIGHT));
            case NULL:
                return new Constant(Value.NULL);
            case BOOLEAN:
            case INTEGER:
            case DOUBLE:
                return new Constant(token.value());
            case VARIABLE:
                return new VariableReference(token.text());
            case FUNCTION:
                return functionCall(token);
            case CASE:
                return caseWhen();
            default:
                throw syntaxError(token);
        }
    }

    /** {@code IS [NOT] NULL|TRUE|FALSE}, {@code ISNULL}, {@code NOTNULL} after an operand. */
    private Expression postfix(Token operator, Expression operand) throws ScriptSyntaxException {
        if (operator.kind() == Kind.ISNULL) {
            return call(BuiltinFunction.IS, operand, new Constant(Value.NULL));
        }
        if (operator.kind() == Kind.NOTNULL) {
            return call(BuiltinFunction.NOT, call(BuiltinFunction.IS, operand, new Constant(Value.NULL)));
        }
        boolean negated = peek().kind() == Kind.NOT;
        if (negated) {
            shift();
        }
        Token what = take();
        Value against;
        if (what.kind() == Kind.NULL) {
            against = Value.NULL;
        } else if (what.kind() == Kind.BOOLEAN) {
            against = what.value();
        } else {
            throw syntaxError(what);
        }
        push(what);
        Expression is = call(BuiltinFunction.IS, operand, new Constant(against));
        return negated ? call(BuiltinFunction.NOT, is) : is;
    }

    private static Expression binary(Kind operator, Expression left, Expression right) {
        switch (operator) {
            case OR:
                return call(BuiltinFunction.OR, left, right);
            case AND:
                return call(BuiltinFunction.AND, left, right);
            case EQUAL:
                return call(BuiltinFunction.EQ, left, right);
            case NOT_EQUAL:
                return call(BuiltinFunction.NE, left, right);
            case LESS:
                return call(BuiltinFunction.LT, left, right);
            case LESS_EQUAL:
                return call(BuiltinFunction.LE, left, right);
            case GREATER:
                return call(BuiltinFunction.LT, right, left);
            case GREATER_EQUAL:
                return call(BuiltinFunction.LE, right, left);
            case BAR:
                return call(BuiltinFunction.BITOR, left, right);
            case HASH:
                return call(BuiltinFunction.BITXOR, left, right);
            case AMPERSAND:
                return call(BuiltinFunction.BITAND, left, right);
            case SHIFT_LEFT:
                return call(BuiltinFunction.LSHIFT, left, right);
            case SHIFT_RIGHT:
                return call(BuiltinFunction.RSHIFT, left, right);
            case PLUS:
                return call(BuiltinFunction.ADD, left, right);
            case MINUS:
                return call(BuiltinFunction.SUB, left, right);
            case STAR:
                return call(BuiltinFunction.MUL, left, right);
            case SLASH:
                return call(BuiltinFunction.DIV, left, right);
            default:
                return call(BuiltinFunction.MOD, left, right);
        }
    }

    private static Expression call(BuiltinFunction function, Expression... arguments) {
        return new FunctionCall(function, List.of(arguments));
    }

    /** {@code name(arguments)}: the name is checked as soon as it is read, the arguments at the parenthesis. */
    private Expression functionCall(Token name) throws ScriptSyntaxException {
        BuiltinFunction function = BuiltinFunction.named(name.text());
        if (function == null) {
            throw new ScriptSyntaxException("unexpected function name", name.text(), lexer.caret(name));
        }
        expect(Kind.LEFT_PAREN);
        int list = depth + 1; // the stack's depth once the argument list is one symbol
        List<Expression> arguments = new ArrayList<>();
        Kind first = peek().kind();
        if (first == Kind.RIGHT_PAREN || first == Kind.COMMA) {
            push(peek()); // the empty list, reduced before the parenthesis or comma is shifted
        } else {
            arguments.add(expression(0, Associativity.NONE));
        }
        Token close;
        while (true) {
            Token token = take();
            if (token.kind() != Kind.RIGHT_PAREN && token.kind() != Kind.COMMA) {
                throw syntaxError(token);
            }
            depth = list;
            push(token);
            if (token.kind() == Kind.RIGHT_PAREN) {
                close = token;
                break;
            }
            arguments.add(expression(0, Associativity.NONE));
        }
        checkArguments(function, arguments, lexer.caret(close));
        return new FunctionCall(function, arguments);
    }

    private static void checkArguments(BuiltinFunction function, List<Expression> arguments, int column)
            throws ScriptSyntaxException {
        int count = arguments.size();
        String name = function.pgbenchName();
        switch (function.arity()) {
            case AT_LEAST_ONE:
                if (count == 0) {
                    throw new ScriptSyntaxException("at least one argument expected", name, column);
                }
                break;
            case HASH:
                if (count < 1 || count > 2) {
                    throw new ScriptSyntaxException("unexpected number of arguments", name, column);
                }
                if (count == 1) {
                    arguments.add(new VariableReference("default_seed"));
                }
                break;
            case PERMUTE:
                if (count < 2 || count > 3) {
                    throw new ScriptSyntaxException("unexpected number of arguments", name, column);
                }
                if (count == 2) {
                    arguments.add(new VariableReference("default_seed"));
                }
                break;
            default:
                if (count != function.fixedArguments()) {
                    throw new ScriptSyntaxException("unexpected number of arguments", name, column);
                }
        }
    }

    /** {@code CASE WHEN c THEN r [WHEN c THEN r]... [ELSE e] END}, the CASE already read. */
    private Expression caseWhen() throws ScriptSyntaxException {
        int list = depth + 1; // the stack's depth once the WHEN ... THEN ... pairs are one symbol
        List<Expression> arguments = new ArrayList<>();
        expect(Kind.WHEN);
        while (true) {
            arguments.add(expression(0, Associativity.NONE));
            expect(Kind.THEN);
            arguments.add(expression(0, Associativity.NONE));
            depth = list;
            Token token = peek();
            if (token.kind() == Kind.WHEN) {
                shift();
                continue;
            }
            if (token.kind() == Kind.ELSE) {
                shift();
                arguments.add(expression(0, Associativity.NONE));
                expect(Kind.END);
                break;
            }
            if (token.kind() == Kind.END) {
                shift();
                arguments.add(new Constant(Value.NULL));
                break;
            }
            throw syntaxError(take());
        }
        return new FunctionCall(BuiltinFunction.CASE, arguments);
    }
}
