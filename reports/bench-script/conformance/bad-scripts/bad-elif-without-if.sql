SELECT 1;
\elif 1
