import java.lang.reflect.Method;
public class Sql {
    public static void main(String[] a) throws Exception {
        Class<?> v = Class.forName("dev.gauntlet.trainevents.workload.Variant");
        Object variant = v.getMethod("parse", String.class).invoke(null, a[0]);
        for (int i = 1; i < a.length; i++) {
            Method m = v.getDeclaredMethod(a[i]);
            m.setAccessible(true);
            System.out.println(a[i] + "\t" + m.invoke(java.lang.reflect.Modifier.isStatic(m.getModifiers()) ? null : variant));
        }
    }
}
