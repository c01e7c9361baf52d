package dev.gauntlet.testing;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The bytes of the arrays an object holds on to, found by walking what it references: the fields of Gauntlet's own
 * classes, the elements of collections and maps, and arrays. The JDK's other objects (a file channel, a path, an
 * atomic counter) are not entered: what a ledger would keep per record is arrays, in its own fields or in
 * collections. No clock and no garbage collection involved, so the figure is the same on any machine.
 */
public final class RetainedArrays {

    private RetainedArrays() {
    }

    public static long bytes(Object root) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object> todo = new ArrayDeque<>();
        todo.push(root);
        long bytes = 0;
        while (!todo.isEmpty()) {
            Object o = todo.pop();
            if (!seen.add(o)) {
                continue;
            }
            Class<?> type = o.getClass();
            if (type.isArray()) {
                int n = Array.getLength(o);
                Class<?> component = type.getComponentType();
                bytes += 16 + (long) n * (component.isPrimitive() ? primitiveBytes(component) : 4);
                if (!component.isPrimitive()) {
                    for (Object e : (Object[]) o) {
                        push(todo, e);
                    }
                }
            } else if (o instanceof Collection<?> c) {
                bytes += 16 + 4L * c.size();
                c.forEach(e -> push(todo, e));
            } else if (o instanceof Map<?, ?> m) {
                bytes += 16 + 8L * m.size();
                m.forEach((k, v) -> {
                    push(todo, k);
                    push(todo, v);
                });
            } else if (type.getName().startsWith("dev.gauntlet.")) {
                for (Class<?> t = type; t != null && t.getName().startsWith("dev.gauntlet."); t = t.getSuperclass()) {
                    for (Field f : t.getDeclaredFields()) {
                        if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
                            f.setAccessible(true);
                            try {
                                push(todo, f.get(o));
                            } catch (IllegalAccessException e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    }
                }
            }
        }
        return bytes;
    }

    private static void push(Deque<Object> todo, Object o) {
        if (o != null) {
            todo.push(o);
        }
    }

    private static int primitiveBytes(Class<?> t) {
        if (t == long.class || t == double.class) {
            return 8;
        }
        if (t == int.class || t == float.class) {
            return 4;
        }
        return t == short.class || t == char.class ? 2 : 1;
    }
}
